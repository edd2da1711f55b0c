/**
 * What a statement is about, as a set of content words, so two statements can be compared by
 * content whatever their wording or language: stemmed words without function words (English's and
 * the closed classes of the other languages people write in), unspaced scripts as character pairs.
 */
import { terms } from '../nlp/text.js';

/** Articles, prepositions, conjunctions and pronouns of Spanish, French, German and Portuguese. */
const FUNCTION = new Set(
  `el la los las un una unos unas de del al en y o que es son por para con sin se lo le les su sus mi mis tu tus
  le la les un une des du de et ou que qui est sont pour par avec sans dans sur au aux ce cette ces il elle on nous vous je ne pas
  der die das den dem des ein eine einen einem einer und oder ist sind mit ohne für von zu im in auf an es wir ich du sie nicht
  o os as um uma e ou com sem para por em no na nos nas do da dos das`
    .trim()
    .split(/\s+/),
);

export function contentTerms(text: string): Set<string> {
  return new Set(terms(text).filter((t) => t.length >= 2 && !FUNCTION.has(t)));
}

/** How many terms two sets share. */
export function shared(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  let n = 0;
  for (const t of a) if (b.has(t)) n++;
  return n;
}

/** The share of the smaller set the other one holds: 1 when one statement contains the other. */
export function containment(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  const small = Math.min(a.size, b.size);
  return small === 0 ? 0 : shared(a, b) / small;
}

/** A pair of characters of an unspaced script: half a word, as evidence that two statements meet. */
const PAIR = /^[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]{2}$/u;

/** Shared terms, a pair of unspaced-script characters counting half (one shared pair is often chance). */
export function weightedShared(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  let n = 0;
  for (const t of a) if (b.has(t)) n += PAIR.test(t) ? 0.5 : 1;
  return n;
}
