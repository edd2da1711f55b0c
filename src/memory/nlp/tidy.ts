/**
 * Sentence clean-up: conversational filler off, markdown emphasis off, one capital and one full
 * stop on. The user's own words are kept; nothing is paraphrased.
 */

/** A learning joined from two sentences is at most this long. */
export const MAX_CONTENT = 240;

// Fillers that open a sentence. Ones that can also start real content ("no longer", "good
// commit messages…") only count when punctuation follows them.
const FILLER = new RegExp(
  String.raw`^(?:(?:ok(?:ay)?|so|hey|hi|hello|btw|by the way|also|and|oh|well|alright|anyway(?:s)?|actually|fyi|one more thing|quick note|ps|p\.s\.|(?:please\s+)?note(?:\s+that)?|yeah|yes|yep|sure|hmm+|um+|uh+|i mean)(?:[\s,:;.!—–]+|$)|(?:no|nope|not quite|wrong|thanks|thank you|thx|great|nice|cool|perfect|awesome|good|right|lgtm|got it|understood|really|seriously|again|once more)[,:;.!—–]+\s*)+`,
  'i',
);
const TRAILING = /(?:[\s,;:—–-]+(?:thanks|thank you|thx|ty|please|pls|plz|btw|fyi|lol)\b|\s*(?::\)|:-\)|:D|;\)))*[\s!.,;:—–-]*$/i;
/** Longest trailing filler run looked at (", thank you :) !!"). */
const TAIL = 40;
const EMOJI = /[\u{1F300}-\u{1FAFF}\u{2600}-\u{27BF}]|\u{FE0F}/gu;
const EMPHASIS = /\*\*|__|(?<![\w*])\*(?=\S)|(?<=\S)\*(?![\w*])/g;
const NON_ASCII = /[^\x00-\x7f]/;
const ALNUM = /[\p{L}\p{N}]/u;
const PLEASE = /^(?:please|pls|plz|kindly)[\s,]+/i;

export interface Tidy {
  /** Display text: fillers and emphasis off, no final punctuation. */
  text: string;
  /** Lower-cased text with a leading "please" removed, for matching. */
  body: string;
  polite: boolean;
  question: boolean;
}

export function tidy(raw: string): Tidy {
  let text = raw;
  // Most sentences are plain ASCII without emphasis: skip the passes that cannot change them.
  if (NON_ASCII.test(text)) text = text.replace(/[‘’]/g, "'").replace(/[“”]/g, '"').replace(EMOJI, '');
  if (text.includes('*') || text.includes('__')) text = text.replace(EMPHASIS, '');
  if (/\s\s|[\t\n\r]/.test(text)) text = text.replace(/\s+/g, ' ');
  text = text.trim();
  const question = /\?["')\]]*$/.test(text);
  text = text.replace(FILLER, '');
  // Trailing fillers are short: matching on the tail keeps this from scanning the whole sentence.
  const tail = Math.max(0, text.length - TAIL);
  const end = TRAILING.exec(text.slice(tail));
  if (end !== null) text = text.slice(0, tail + end.index);
  const please = PLEASE.exec(text);
  if (please !== null) text = text.slice(please[0].length);
  text = text.trim();
  return { text, body: bodyOf(text), polite: please !== null, question };
}

/** What the rules match on: lower case, and "I'd" as "I would" so each wish is spelled one way. */
export function bodyOf(text: string): string {
  const body = text.toLowerCase();
  return body.includes("'d ") ? body.replace(/\b(i|we|you)'d\b/g, '$1 would') : body;
}

/**
 * A finished memory sentence: capitalised, one full stop. Never clipped: a statement is kept whole
 * or split at clause boundaries before it gets here (candidates/clauses.ts), so no memory ends
 * inside a parenthesis or after "e.g.".
 */
export function finish(text: string): string {
  const body = text
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/[\s.!;:,—–-]+$/, '');
  const capital = body.charAt(0).toUpperCase() + body.slice(1);
  // A sentence that ends in another script's own stop or question mark ("。", "？") keeps it.
  return /[?。！？!]$/u.test(capital) ? capital : `${capital}.`;
}

/** Dedupe key: case, punctuation and a polite opening do not make two memories different. */
export function dedupeKey(content: string): string {
  return content
    .toLowerCase()
    .replace(/^please\s+/, '')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/** Words with at least one letter or digit, counted in one pass (this runs on every match). */
export function wordCount(text: string): number {
  let words = 0;
  let inWord = false;
  let counted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 32 || (c >= 9 && c <= 13)) {
      inWord = false;
      continue;
    }
    if (!inWord) {
      inWord = true;
      counted = false;
    }
    const alnum = (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || (c > 127 && ALNUM.test(text.charAt(i)));
    if (alnum && !counted) {
      counted = true;
      words++;
    }
  }
  return words;
}
