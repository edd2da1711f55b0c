/**
 * Text processing shared by the lexical indexes and duplicate detection: one tokenizer, a small
 * stop-word list and the Porter stemmer, so "deploys", "deployed" and "deploying" meet. Scripts
 * written without spaces (Chinese, Japanese, Thai…) are cut into overlapping character pairs, the
 * usual way to search them without a dictionary: "数据库连接" → 数据 据库 库连 连接.
 */
import { stemmer } from 'stemmer';
import { NEGATORS } from './lexicon.js';

const STOP = new Set(
  (
    'a an and are as at be been but by can could did do does doing for from had has have he her hers him his how i if in into is it its ' +
    'just me my of on or our ours she so than that the their them then there these they this those to too us was we were what when ' +
    'where which who whom why will with would you your yours im ive id ill youre dont doesnt didnt isnt wasnt am also very really ' +
    'about over some any all more most other such only own same s t'
  ).split(' '),
);

/** Scripts without spaces between words. */
const UNSPACED = String.raw`\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}\p{Script=Tibetan}`;
/** A word: letters, digits, marks, underscores. */
const WORD = /[\p{L}\p{N}][\p{L}\p{N}\p{M}_]*/gu;
/** A run of unspaced script (group 1), or a word of anything else. */
const TOKEN = new RegExp(String.raw`(?=[\p{L}\p{N}])(?:([${UNSPACED}]+)|[\p{L}\p{N}][\p{L}\p{N}\p{M}_]*)`, 'gu');
const HAS_UNSPACED = new RegExp(`[${UNSPACED}]`, 'u');
/** Longer words are left whole: a 60-letter run is an identifier or noise, not a word to stem. */
const STEM_MAX = 40;

/** Stems already computed: a vocabulary repeats, and indexing 100k memories stems ~2M words. */
const stems = new Map<string, string>();
const STEMS_KEPT = 100_000;

/** Porter-stems plain English words; numbers, identifiers with digits and other scripts are left alone. */
export function stem(word: string): string {
  if (word.length <= 3 || word.length > STEM_MAX || !/^[a-z]+$/.test(word)) return word;
  let s = stems.get(word);
  if (s === undefined) {
    if (stems.size >= STEMS_KEPT) stems.clear();
    s = stemmer(word);
    stems.set(word, s);
  }
  return s;
}

/** A run of an unspaced script as its character pairs (a single character stays as it is). */
function pairs(run: string, out: string[]): void {
  const chars = [...run];
  if (chars.length === 1) out.push(run);
  for (let i = 0; i + 1 < chars.length; i++) out.push(`${chars[i]}${chars[i + 1]}`);
}

/** Lower-cased words of a text, in order, stop words included; unspaced scripts as character pairs. */
export function words(text: string): string[] {
  const lower = text.toLowerCase().replace(/['’]/g, '');
  // Most text has no unspaced script: one plain match, the fast path.
  if (!HAS_UNSPACED.test(lower)) return lower.match(WORD) ?? [];
  const out: string[] = [];
  for (const m of lower.matchAll(TOKEN)) {
    if (m[1] !== undefined) pairs(m[1], out);
    else out.push(m[0]);
  }
  return out;
}

export const isStopWord = (word: string): boolean => STOP.has(word);

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

/** The agent's closing question, when its text ends by asking one. */
export function closingQuestion(text: string): string | undefined {
  const paragraphs = text.trim().split(/\n\s*\n/);
  const last = paragraphs[paragraphs.length - 1] ?? '';
  if (!last.includes('?')) return undefined;
  const questions = last.match(/[^.!?\n]*\?/g);
  const q = questions?.[questions.length - 1]?.trim();
  return q === undefined || q.length < 8 ? undefined : q;
}

/** Negated auxiliaries as the tokenizer spells them (apostrophes dropped). */
const CONTRACTED = new Set('dont doesnt didnt wont cant isnt arent wasnt werent shouldnt wouldnt couldnt mustnt havent hasnt hadnt neednt'.split(' '));

/** Whether a statement says "not": "do not run …", "never …", "don't …". */
export const negated = (text: string): boolean => words(text).some((w) => NEGATORS.has(w) || CONTRACTED.has(w));
