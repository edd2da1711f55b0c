/**
 * What the person asked for, read from a typed message the agent answered by writing files: the
 * first sentence that asks for a change ("Move the size legend above the chart", "let's add a
 * toggle for inflation"). It is the agent's record of a change where no commit names it; a go-ahead
 * ("continue", "do it"), a question or a story asks for nothing of its own.
 */
import { analyze } from '../nlp/index.js';
import { GO_AHEAD, PREFERENCE, RELATIVE_TIME, TASK_VERBS } from '../nlp/lexicon.js';
import { commandAt } from '../nlp/mood.js';
import type { Token } from '../nlp/types.js';

/** Content words a request needs to say what it changes ("fix it" does not). */
const NAMED_MIN = 2;
/** Only the head of a long message is read: a request comes first, pasted output after it. */
const READ_MAX = 1200;

/**
 * Verbs that look, ask or explain (what the agent then wrote was a note, not the change asked for),
 * and verbs that only carry on with work already set ("finish the rest", "get started", "make sure
 * it is done"): neither names a change of its own.
 */
const NOT_A_CHANGE = new Set(
  `look read research investigate check review explain show tell describe summarize summarise try test verify find search see inspect
  examine analyze analyse understand compare evaluate list print give ensure finish complete get keep start begin resume wrap ready make`.split(/\s+/),
);
/** "make" names a change when it makes something ("make the grid square"), not "make sure". */
const MAKES = (rest: readonly Token[]): boolean => rest[0]?.lower !== 'sure' && rest[0]?.lower !== 'certain';

/** Words that make a request a standing rule, and a plural subject's verb (the sentence states, it does not ask). */
const LASTING = new Set(['always', 'never', 'every', 'each', 'whenever', 'are', 'were']);

const ABOUT_THE_CHAT = /\b(?:this|the current) (?:chat|conversation|session|thread)\b/i;

/** Words that name what is changed: not stop words, not "again" or "now" (which say when). */
const isContent = (t: Token): boolean =>
  t.kind !== 'punctuation' && t.kind !== 'symbol' && !t.stop && t.pos !== 'AUX' && t.pos !== 'INTJ' && !RELATIVE_TIME.has(t.lower);

/** "let's add …": a proposal of the team with a verb that changes something; where its verb is, or -1. */
function proposedChange(tokens: readonly Token[]): number {
  const i = tokens.findIndex((t, k) => t.lower === "let's" || t.lower === 'lets' || (t.lower === 'let' && /^(?:'s|’s|us)$/.test(tokens[k + 1]?.lower ?? '')));
  if (i < 0) return -1;
  const at = tokens.findIndex((t, k) => k > i + 1 && t.pos === 'VERB');
  const verb = tokens[at];
  return verb !== undefined && TASK_VERBS.has(verb.lemma) && !GO_AHEAD.has(verb.lemma) ? at : -1;
}

/** The sentence of `text` that asks for a change, or undefined when it asks for none. */
export function askedChange(text: string): string | undefined {
  const head = text.slice(0, READ_MAX);
  // A pasted block or a quoted log is not the person's request.
  if (/^\s*(?:```|>|\$ |\[|\{)/.test(head)) return undefined;
  for (const s of analyze(head)) {
    if (s.tokens.some((t) => t.text === '?')) continue;
    const command = commandAt(s.tokens, s.text);
    // "Let's add …" is read by the verb after "let's".
    const commanded = command >= 0 && !GO_AHEAD.has(s.tokens[command]?.lower ?? '') && s.tokens[command]?.lower !== 'let';
    const at = commanded ? command : proposedChange(s.tokens);
    const verb = s.tokens[at];
    if (verb === undefined || !/^[a-z]+$/i.test(verb.text) || PREFERENCE.has(verb.lemma)) continue;
    const rest = s.tokens.slice(at + 1);
    if (NOT_A_CHANGE.has(verb.lemma) && !(verb.lemma === 'make' && MAKES(rest))) continue;
    // "Note: the endpoint 404s" labels what follows, "Create these files:" leads into a list, "run
    // the migration again" repeats a moment, "commit each fix on its own" is a rule, and "Answer +
    // commits are good" has a subject: none of them is one change asked for.
    if (rest[0]?.text === ':' || /:\s*$/.test(s.text) || s.tokens.some((t) => t.lower === 'again' || LASTING.has(t.lower))) continue;
    // "Export a transcript of this chat": work on the conversation itself, not on the project.
    if (rest.filter(isContent).length < NAMED_MIN || ABOUT_THE_CHAT.test(s.text)) continue;
    // From its verb on: "Great, let's add a toggle" is recorded as "add a toggle".
    const from = s.text.search(new RegExp(`\\b${verb.text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\b`));
    const said = (from >= 0 ? s.text.slice(from) : s.text).trim();
    return said.charAt(0).toUpperCase() + said.slice(1);
  }
  return undefined;
}
