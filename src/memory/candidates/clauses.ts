/** Clauses of a long sentence, for when one of them is what lasts. */
import { analyze, looksForeign } from '../nlp/index.js';
import { joinSentences, type Unit } from './unit.js';

/**
 * A long sentence's clauses, each analysed on its own: "I renamed the folder X, whereas this is
 * really a personal kb" says two things, and either may be the one that lasts.
 */
const CLAUSE_BREAK =
  /\s*(?:;|—|–|\s-\s|,\s+(?:but|and|so|as|whereas|because|since|which)\s+|\s+(?:whereas|because)\s+|\s+as\s+(?=(?:our|we|the|my|it|this)\b)|,\s+(?=(?:it|this|that|we|i|you|they)\s)|\s+(?:then|than)\s+(?=(?:i|we)\b)|\s+so\s+(?!that\b)(?=(?:just|we|i|you|please)\b))\s*/i;
const CLAUSE_MIN_WORDS = 2;
const SPLIT_FROM_WORDS = 16;

const BREAKS = new RegExp(CLAUSE_BREAK.source, 'gi');

/** Inside parentheses, brackets or quotes at `at`: a break there would cut an aside in two. */
function nested(text: string, at: number): boolean {
  let depth = 0;
  let quoted = false;
  for (let i = 0; i < at; i++) {
    const c = text[i];
    if (c === '(' || c === '[' || c === '{') depth++;
    else if ((c === ')' || c === ']' || c === '}') && depth > 0) depth--;
    else if (c === '"' || c === '`') quoted = !quoted;
  }
  return depth > 0 || quoted;
}

/** The text split at clause breaks that are not inside an aside or a quotation. */
function splitClauses(text: string): string[] {
  const parts: string[] = [];
  let from = 0;
  for (const m of text.matchAll(BREAKS)) {
    if (m[0].length === 0 || nested(text, m.index)) continue;
    parts.push(text.slice(from, m.index));
    from = m.index + m[0].length;
  }
  parts.push(text.slice(from));
  return parts;
}

/**
 * The breaks are English conjunctions and punctuation read the English way: in another language
 * (or an unspaced script) a rule cut there loses its condition or its subject, so it stays whole.
 */
export function clausesOf(u: Unit): Unit[] {
  if (!u.sentence.english || looksForeign(u.text) || u.text.split(/\s+/).length < SPLIT_FROM_WORDS) return [];
  const parts = splitClauses(u.text)
    .map((p) => p.trim())
    .filter((p) => p.split(/\s+/).length >= CLAUSE_MIN_WORDS);
  if (parts.length < 2) return [];
  return parts.flatMap((p) => {
    const sentence = joinSentences(analyze(p));
    return sentence === undefined ? [] : [{ ...u, text: sentence.text, sentence }];
  });
}
