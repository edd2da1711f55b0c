/**
 * The mood of a sentence from its tokens: where its command is, if it is one. The lite language
 * model often reads a sentence-initial verb as a noun ("Use pnpm", "Format the code"), so a first
 * word it did not call a verb is read again after "you", where only a verb fits.
 */
import { analyze } from './analyze.js';
import type { Token } from './types.js';

const set = (words: string): ReadonlySet<string> => new Set(words.trim().split(/\s+/));

/** Discourse markers and interjections that may open a sentence without being part of it. */
export const OPENERS = set(`ok okay so and also then but oh well alright anyway btw yes yeah yep sure hmm um uh hey hi please pls plz
  kindly actually now just first`);
/** Forms of be, have and do and the modals: a sentence opening with one is not a command. */
export const AUXILIARIES = set(`be is are am was were been being have has had do does did can could would should will shall may might must`);

/** Words the tagger may take for a sentence's first verb: "everything goes through tracing" states a rule. */
export const NOT_A_VERB = set(`everything everyone everybody nothing nobody something anything all each both`);
/** A version after a word ("go 1.22", "python 3.12"): the word names what is versioned, it is no verb. */
const VERSION = /^v?\d+(?:\.\d+)+$/;

/** Praise that opens a sentence on its own, set off by punctuation: "Great, save and commit after each change". */
const PRAISE = set(`great nice awesome cool perfect good excellent lovely sweet fine`);

/** The first token that is part of the statement proper (past interjections, discourse markers and praise set off). */
export function firstWord(tokens: readonly Token[]): number {
  let i = 0;
  const opener = (t: Token): boolean =>
    t.kind === 'punctuation' || t.pos === 'INTJ' || OPENERS.has(t.lower) || (PRAISE.has(t.lower) && tokens[i + 1]?.kind === 'punctuation');
  while (i < tokens.length && opener(tokens[i] as Token)) i++;
  return i;
}

/** A finite verb of a third person: what follows a subject, never an imperative's object ("Mix phx.server doesn't start"). */
const FINITE_THIRD = set(`does doesn't is isn't was wasn't has hasn't seems keeps won't can't`);

/** The first word heads a subject when a finite verb follows the nouns after it: "Test coverage is low". */
function headsSubject(tokens: readonly Token[], i: number): boolean {
  let j = i + 1;
  while (j < tokens.length && ((tokens[j] as Token).pos === 'NOUN' || (tokens[j] as Token).pos === 'PROPN' || (tokens[j] as Token).pos === 'X')) j++;
  const next = tokens[j];
  return next !== undefined && (FINITE_THIRD.has(next.lower) || FINITE_THIRD.has(`${next.lower}${tokens[j + 1]?.lower ?? ''}`));
}

/** Index of the command's verb ("please always run …", "don't use …", "Use pnpm"), or -1. */
export function commandAt(tokens: readonly Token[], text: string): number {
  const at = verbAt(tokens, text);
  // "Change of plan: …", "Proof of concept": a noun before "of", never an imperative.
  if (at >= 0) return headsSubject(tokens, at) || tokens[at + 1]?.lower === 'of' || VERSION.test(tokens[at + 1]?.text ?? '') ? -1 : at;
  return pleaseAfter(tokens);
}

/** "A lot has changed since then, please take a new overview": a command after the sentence's first clause. */
function pleaseAfter(tokens: readonly Token[]): number {
  for (let i = firstWord(tokens) + 1; i < tokens.length - 1; i++) {
    const verb = tokens[i + 1] as Token;
    if (tokens[i]?.lower === 'please' && tokens[i - 1]?.kind === 'punctuation' && verb.pos === 'VERB' && verb.lemma === verb.lower) return i + 1;
  }
  return -1;
}

function verbAt(tokens: readonly Token[], text: string): number {
  let i = firstWord(tokens);
  while (i < tokens.length && ((tokens[i] as Token).pos === 'ADV' || (tokens[i] as Token).pos === 'PART' || (tokens[i] as Token).lower === 'do')) i++;
  const t = tokens[i];
  if (t === undefined || AUXILIARIES.has(t.lower) || NOT_A_VERB.has(t.lower)) return -1;
  // "Do some research on …": "do" before what is done is the verb itself, not "do use pnpm"'s emphasis.
  if (tokens[i - 1]?.lower === 'do' && i - 1 >= firstWord(tokens) && (t.pos === 'DET' || t.pos === 'NOUN')) return i - 1;
  if (t.pos === 'VERB') return t.lemma === t.lower ? i : -1;
  if (i !== firstWord(tokens) || !(t.pos === 'NOUN' || t.pos === 'PROPN' || t.pos === 'ADJ') || !/^[A-Za-z]+(?:-[A-Za-z]+)?$/.test(t.text)) return -1;
  const at = text.indexOf(t.text);
  const after = text.slice(at + t.text.length, at + t.text.length + 40);
  const isVerb = (word: string): boolean => {
    const again = analyze(`you ${word}${after}`)[0]?.tokens[1];
    return again !== undefined && again.pos === 'VERB' && again.lemma === again.lower;
  };
  // "Re-run the warmup job", "recompute everything": the model knows the verb, not its "re-".
  const stem = /^re-?([a-z]{3,})$/.exec(t.lower)?.[1];
  return (/^[a-z]+$/.test(t.lower) && isVerb(t.lower)) || (stem !== undefined && isVerb(stem)) ? i : -1;
}

/** Words of a wish the person has of the agent: "I'd like you to add …", "I want to add …". */
const WISH = set(`like want need love`);
const WISHER = set(`i id i'd we`);

/**
 * "I'd like (you) to add …", "I want to add …", "we'd love for you to build …": where the verb of
 * what is wished for is, or -1. What is wished for this way is asked of the agent, as a command is.
 */
export function wishedVerbAt(tokens: readonly Token[]): number {
  const i = tokens.findIndex((t, k) => WISH.has(t.lower) && tokens.slice(Math.max(0, k - 2), k).some((p) => WISHER.has(p.lower)));
  if (i < 0) return -1;
  let k = i + 1;
  if (tokens[k]?.lower === 'for') k++;
  if (tokens[k]?.lower === 'you') k++;
  return tokens[k]?.lower === 'to' && tokens[k + 1] !== undefined ? k + 1 : -1;
}
