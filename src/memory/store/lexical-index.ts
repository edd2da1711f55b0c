/** A BM25+ index (MiniSearch) over short texts, updated incrementally, with our text processing. */
import MiniSearch from 'minisearch';
import { searchTextOptions } from '../nlp/text.js';

interface Doc {
  id: string;
  text: string;
}

export interface Hit {
  id: string;
  score: number;
}

const FUZZY_BELOW = 10;

export class LexicalIndex {
  private readonly ms = new MiniSearch<Doc>({
    fields: ['text'],
    storeFields: [],
    ...searchTextOptions,
    autoVacuum: { minDirtCount: 1000, minDirtFactor: 0.2 },
  });

  get size(): number {
    return this.ms.documentCount;
  }

  has(id: string): boolean {
    return this.ms.has(id);
  }

  set(id: string, text: string): void {
    if (this.ms.has(id)) this.ms.discard(id);
    this.ms.add({ id, text });
  }

  addAll(docs: Doc[]): void {
    this.ms.addAll(docs);
  }

  delete(id: string): void {
    if (this.ms.has(id)) this.ms.discard(id);
  }

  /**
   * Best matches first; `accept` filters by id before the limit is applied. `exact` turns off
   * prefix and fuzzy matching: duplicate checks want the same words, and are many times faster so.
   */
  search(query: string, limit: number, accept?: (id: string) => boolean, exact = false): Hit[] {
    const run = (fuzzy: boolean) =>
      this.ms.search(query, {
        prefix: (term) => !exact && term.length >= 5,
        fuzzy: (term) => (fuzzy && term.length >= 7 ? 0.15 : false),
        weights: { fuzzy: 0.3, prefix: 0.5 },
        ...(accept && { filter: (r) => accept(String(r.id)) }),
      });
    // Fuzzy matching is for typos, and costly over a large vocabulary: only when the words found little.
    let results = run(false);
    if (!exact && results.length < FUZZY_BELOW) results = run(true);
    const out: Hit[] = [];
    for (const r of results) {
      out.push({ id: String(r.id), score: r.score });
      if (out.length >= limit) break;
    }
    return out;
  }
}
