/**
 * Text processing shared by the lexical indexes and duplicate detection: one tokenizer, a small
 * stop-word list and a light suffix stemmer, so "deploys", "deployed" and "deploying" meet.
 */

const STOP = new Set(
  (
    'a an and are as at be been but by can could did do does doing for from had has have he her hers him his how i if in into is it its ' +
    'just me my of on or our ours she so than that the their them then there these they this those to too us was we were what when ' +
    'where which who whom why will with would you your yours im ive id ill youre dont doesnt didnt isnt wasnt am also very really ' +
    'about over some any all more most other such only own same s t'
  ).split(' '),
);

const WORD = /[\p{L}\p{N}][\p{L}\p{N}_]*/gu;

/** Strips common English suffixes; short words and numbers are left alone. */
export function stem(word: string): string {
  if (word.length <= 3 || /\d/.test(word)) return word;
  if (word.endsWith('ies') && word.length > 4) return `${word.slice(0, -3)}y`;
  if (word.endsWith('sses')) return word.slice(0, -2);
  if (word.endsWith('ing') && word.length > 5) return undouble(word.slice(0, -3));
  if (word.endsWith('ed') && word.length > 4) return undouble(word.slice(0, -2));
  if (word.endsWith('ly') && word.length > 4) return word.slice(0, -2);
  if (word.endsWith('es') && /(?:ch|sh|x|z|ss)es$/.test(word)) return word.slice(0, -2);
  if (word.endsWith('s') && !word.endsWith('ss') && !word.endsWith('us') && !word.endsWith('is')) return word.slice(0, -1);
  return word;
}

function undouble(w: string): string {
  const n = w.length;
  if (n >= 3 && w[n - 1] === w[n - 2] && !'lsz'.includes(w[n - 1] ?? '')) return w.slice(0, -1);
  if (w.endsWith('at') || w.endsWith('iz')) return `${w}e`;
  return w;
}

/** Lower-cased words of a text, in order, stop words included. */
export function words(text: string): string[] {
  return text.toLowerCase().replace(/['’]/g, '').match(WORD) ?? [];
}

/** Index terms: words without stop words, stemmed. */
export function terms(text: string): string[] {
  const out: string[] = [];
  for (const w of words(text)) if (!STOP.has(w)) out.push(stem(w));
  return out;
}

/** MiniSearch hooks: our tokenizer, and a term processor that drops stop words and stems. */
export const searchTextOptions = {
  tokenize: (text: string): string[] => words(text),
  processTerm: (term: string): string | null => (STOP.has(term) ? null : stem(term)),
};

/** Canonical form for exact-duplicate checks: words only, lower case, single spaces. */
export function normalize(text: string): string {
  return words(text).join(' ');
}

const VALUE = /^v?\d[\d_]*[a-z]{0,3}$/;

/**
 * A statement's subject (its stemmed content words, identifiers like `k12` or `python3`
 * included) and its values (numbers, versions, ports, sizes: `5432`, `v18`, `16gb`). Two texts
 * with the same subject and different values are different facts, or one replaced the other.
 */
export function subjectAndValues(text: string): { subject: string[]; values: string[] } {
  const subject: string[] = [];
  const values: string[] = [];
  for (const w of words(text)) {
    if (VALUE.test(w)) values.push(w);
    else if (!STOP.has(w)) subject.push(stem(w));
  }
  return { subject, values: values.sort() };
}

export function jaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size === 0 && b.size === 0) return 1;
  let inter = 0;
  for (const x of a) if (b.has(x)) inter++;
  return inter / (a.size + b.size - inter);
}
