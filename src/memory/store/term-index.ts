/**
 * Which memories use which content words, per namespace: the blocking index behind duplicate
 * checks. A near-duplicate shares most words with a statement, so it shares one of the statement's
 * rarest words; looking only there keeps a check cheap when common words match thousands.
 */
import { subjectAndValues } from '../nlp/text.js';

export class TermIndex {
  private readonly postings = new Map<string, Set<string>>();
  private readonly termsOf = new Map<string, string[]>();

  set(id: string, text: string, ns: string): void {
    this.delete(id);
    const terms = [...new Set(subjectAndValues(text).subject)].map((t) => `${ns}\u0000${t}`);
    this.termsOf.set(id, terms);
    for (const t of terms) {
      const p = this.postings.get(t);
      if (p) p.add(id);
      else this.postings.set(t, new Set([id]));
    }
  }

  delete(id: string): void {
    for (const t of this.termsOf.get(id) ?? []) {
      const p = this.postings.get(t);
      p?.delete(id);
      if (p?.size === 0) this.postings.delete(t);
    }
    this.termsOf.delete(id);
  }

  /** How many active memories of the namespaces use the word (already stemmed). */
  frequency(term: string, namespaces: string[]): number {
    let n = 0;
    for (const ns of namespaces) n += this.postings.get(`${ns}\u0000${term}`)?.size ?? 0;
    return n;
  }

  /**
   * Ids that share at least `minShare` of the text's content words within the namespace: only
   * those can be its near-duplicates. By pigeonhole such an id sits in one of the few rarest
   * postings (a word no memory uses counts as the rarest of all), so only those are walked.
   */
  candidates(text: string, ns: string, minShare: number): string[] {
    const words = [...new Set(subjectAndValues(text).subject)];
    if (words.length === 0) return [];
    const need = Math.ceil(minShare * words.length);
    const lists = words.map((t) => this.postings.get(`${ns}\u0000${t}`) ?? new Set<string>()).sort((a, b) => a.size - b.size);
    const pool = new Set<string>();
    for (const p of lists.slice(0, words.length - need + 1)) for (const id of p) pool.add(id);
    const keys = new Set(words.map((t) => `${ns}\u0000${t}`));
    return [...pool].filter((id) => (this.termsOf.get(id) ?? []).filter((t) => keys.has(t)).length >= need);
  }
}
