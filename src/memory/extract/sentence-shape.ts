/** Reading the shape of a sentence from its tokens: where its command is, what its subject is. */
import type { Token } from '../nlp/index.js';
import * as L from './lexicon.js';

export const skipLead = (t: Token): boolean => t.kind === 'punctuation' || t.pos === 'INTJ' || L.LEAD_FILLERS.has(t.lower);

export function isBaseVerb(t: Token | undefined): boolean {
  if (t === undefined) return false;
  if (t.pos === 'VERB' || t.pos === 'AUX') return t.lower === t.lemma || L.COMMAND_VERBS.has(t.lower);
  // The lite model tags a sentence-initial "use" or "commit" as a noun now and then.
  return (t.pos === 'NOUN' || t.pos === 'PROPN' || t.pos === 'ADJ') && L.COMMAND_VERBS.has(t.lower);
}

/** Index of the imperative verb, or -1. */
export function imperativeAt(tokens: Token[]): number {
  let i = 0;
  while (i < tokens.length && skipLead(tokens[i] as Token)) i++;
  // "from now on reply in English": a standing phrase may open the command
  for (const phrase of L.STANDING_PHRASES) {
    if (phrase.every((w, k) => tokens[i + k]?.lower === w)) {
      i += phrase.length;
      while (i < tokens.length && skipLead(tokens[i] as Token)) i++;
      break;
    }
  }
  // "always use", "never commit", "just run", "first individually commit"
  while (
    i < tokens.length &&
    (L.LEAD_ADVERBS.has((tokens[i] as Token).lower) || ((tokens[i] as Token).pos === 'ADV' && (tokens[i] as Token).lower.endsWith('ly')))
  )
    i++;
  const t = tokens[i];
  if (t === undefined) return -1;
  // "don't commit", "do not commit", "dont commit"
  if ((t.lower === 'do' || t.lower === 'dont') && tokens[i + 1] !== undefined) {
    let j = i + 1;
    if ((tokens[j] as Token).lemma === 'not' || (tokens[j] as Token).lower === "n't") j++;
    while (j < tokens.length && L.LEAD_ADVERBS.has((tokens[j] as Token).lower)) j++;
    if (t.lower === 'dont' || j > i + 1) return isBaseVerb(tokens[j]) ? j : -1;
  }
  if (t.lower === 'let' && (tokens[i + 1]?.lower === "'s" || tokens[i + 1]?.lower === 'us')) return isBaseVerb(tokens[i + 2]) ? i + 2 : -1;
  // "Be concise", "be careful with …": the one imperative of "be".
  if (t.lower === 'be' && tokens[i + 1]?.pos === 'ADJ') return i;
  return isBaseVerb(t) && !L.NOT_IMPERATIVE.has(t.lower) ? i : -1;
}

/** The head of the subject before the first verb: "the default branch" gives "branch", "our ui" gives "ui". */
export function subjectOf(tokens: Token[]): Token | undefined {
  let head: Token | undefined;
  for (const t of tokens) {
    if (t.pos === 'VERB' || t.pos === 'AUX') return head;
    if (L.POSSESSIVES.has(t.lower)) continue;
    if (t.pos === 'PRON' && head === undefined) return t;
    if (t.pos === 'NOUN' || t.pos === 'PROPN') head = t;
    else if (head !== undefined && t.pos !== 'ADJ' && t.pos !== 'NUM') return head;
  }
  return undefined;
}

export const STANDING_NOW: readonly (readonly string[])[] = [['from', 'now', 'on']];

export function hasSequence(lower: string[], seqs: readonly (readonly string[])[]): boolean {
  for (const seq of seqs) {
    outer: for (let i = 0; i + seq.length <= lower.length; i++) {
      for (let k = 0; k < seq.length; k++) if (lower[i + k] !== seq[k]) continue outer;
      return true;
    }
  }
  return false;
}

/** A short label of nouns, a colon, then a value: no verb before the colon. */
export function labelValue(tokens: Token[]): boolean {
  const colon = tokens.findIndex((t) => t.text === ':');
  if (colon < 1 || colon > 6 || colon >= tokens.length - 1) return false;
  const label = tokens.slice(0, colon);
  const value = tokens.slice(colon + 1).filter((t) => t.kind !== 'punctuation');
  return (
    label.some((t) => t.pos === 'NOUN' || t.pos === 'PROPN') &&
    !label.some((t) => t.pos === 'VERB' || t.pos === 'AUX' || t.pos === 'PRON') &&
    label[0]?.pos !== 'ADP' &&
    value.length > 0 &&
    value.length <= 8 &&
    !value.some((t) => t.pos === 'VERB' || t.pos === 'AUX')
  );
}

/** The imperative, at the start or after a leading phrase and its comma ("From now on, always run …"). */
export function commandAt(tokens: Token[]): number {
  const at = imperativeAt(tokens);
  if (at >= 0) return at;
  const comma = tokens.findIndex((t, i) => i < 10 && t.text === ',');
  if (comma < 0) return -1;
  const after = imperativeAt(tokens.slice(comma + 1));
  return after < 0 ? -1 : comma + 1 + after;
}
