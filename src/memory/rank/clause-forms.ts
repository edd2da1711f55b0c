/**
 * The forms of a clause the features and the kind read: a question, a label and its value, a
 * judgement, a proposal, a command after a condition, a habit, the day it is bound to, and the
 * formats an agent writes in. Each reads tokens or text, never a word of a transcript.
 */
import type { Token } from '../nlp/index.js';
import { commandAt, firstWord } from '../nlp/mood.js';
import * as L from '../nlp/lexicon.js';

/** Who does the work a condition is about: "before you commit", "once we merge". */
const AGENTS = new Set(['you', 'we', 'i']);
/** Quantifiers over every case (not "all the files": a set at hand). */
const EVERY = new Set(['each', 'every', 'any']);
/** Conditions that time the work itself: "before you push", "after each change", "when adding a route". */
const HABIT_TIMES = new Set(['before', 'after', 'when', 'whenever', 'once']);
/** Prepositions that make "every …" the cases a rule covers ("for every endpoint"), not the objects of one task ("go through every field"). */
const CASE_PREPOSITIONS = new Set(['for', 'on', 'after', 'before', 'per', 'with']);
/** Words that bind what is said to the day it is said. */
const TODAY = new Set(['today', 'tonight']);
const TODAY_PHRASES = [
  ['this', 'session'],
  ['this', 'morning'],
  ['this', 'afternoon'],
  ['this', 'evening'],
];
/** "each one", "each of them": the objects just named, counted, not a case that recurs. */
const EACH_OF = new Set(['one', 'of']);

/** One of the phrases, word for word, somewhere in the lower-cased words. */
export function hasPhrase(lower: readonly string[], list: readonly (readonly string[])[]): boolean {
  for (const p of list)
    outer: for (let i = 0; i + p.length <= lower.length; i++) {
      for (let k = 0; k < p.length; k++) if (lower[i + k] !== p[k]) continue outer;
      return true;
    }
  return false;
}

/** Pronouns that can be the subject "do" asks about. */
const SUBJECTS = new Set(['i', 'you', 'we', 'they']);

/** Asking, with a question mark or in the form of a question ("how much does it cost"). */
export function question(tokens: readonly Token[], text: string): boolean {
  if (/\?\s*["')\]]*\s*$/.test(text)) return true;
  const i = firstWord(tokens);
  const t = tokens[i];
  const next = tokens[i + 1];
  if (t === undefined) return false;
  // "How much does X cost", "what if we…": asking, with or without the question mark; "when X, do Y" is a condition.
  if (L.WH_WORDS.has(t.lower)) return !L.CONDITIONS.has(t.lower) || next?.pos === 'AUX' || next?.pos === 'VERB';
  // "Do you …?" asks; "Do it inside the new folder" is a command ("does it …?" would ask).
  if (t.lower === 'do') return next !== undefined && SUBJECTS.has(next.lower);
  return L.AUXILIARIES.has(t.lower) && next?.pos === 'PRON';
}

/** A short label of nouns (no verb, no pronoun), a colon, then a value; "**USB detection**:" is a label too. */
export function labelValue(tokens: readonly Token[]): boolean {
  const colon = tokens.findIndex((t) => t.text === ':');
  const label = tokens.slice(0, Math.max(0, colon)).filter((t) => !/^[*_]+$/.test(t.text));
  if (label.length < 1 || label.length > 5 || colon >= tokens.length - 1) return false;
  return label.some((t) => t.pos === 'NOUN' || t.pos === 'PROPN') && !label.some((t) => t.pos === 'VERB' || t.pos === 'AUX' || t.pos === 'PRON');
}

/**
 * What a sentence opened by a label naming trouble ("Another bug: …", "More UI issues - …",
 * "Errors: …") says after it:
 * - `report`: what went wrong ("the sidebar overlaps the chat, it should scroll"); its "should" is
 *   what was expected to happen, not a rule;
 * - `rule`: a command about that trouble ("always wrap them with context", "treat them as errors in CI");
 * - `task`: a command to fix it once ("Bug: fix the sidebar");
 * undefined when no such label opens it.
 */
export function troubleLabelled(tokens: readonly Token[], text: string): 'report' | 'rule' | 'task' | undefined {
  const end = tokens.findIndex((t) => t.text === ':' || /^[-–—]$/.test(t.text));
  if (end < 1 || end > 5 || end >= tokens.length - 1) return undefined;
  const label = tokens.slice(0, end);
  if (!label.some((t) => L.TROUBLE.has(t.lower)) || label.some((t) => t.pos === 'VERB' || t.pos === 'AUX' || t.pos === 'PRON')) return undefined;
  // The value's text starts after the separator (a hyphen inside a label's word is none).
  const sep = tokens[end]?.text === ':' ? text.indexOf(':') : text.search(/\s[-–—]\s/) + 1;
  const value = tokens.slice(end + 1);
  const verb = value[commandAt(value, text.slice(sep + 1))];
  if (verb === undefined) return 'report';
  return L.TASK_VERBS.has(verb.lemma) ? 'task' : 'rule';
}

const NAMES_A_THING = new Set(['NOUN', 'PROPN', 'NUM', 'X']);
/**
 * "polars, not pandas", "staging-2, not staging": a thing set against another, each side naming
 * one ("ok, not bad" names nothing).
 */
export function contrasts(tokens: readonly Token[]): boolean {
  const at = tokens.findIndex((t, i) => t.lower === 'not' && [',', ';', '—', '–'].includes(tokens[i - 1]?.text ?? ''));
  if (at < 2) return false;
  const names = (part: readonly Token[]) => part.some((t) => NAMES_A_THING.has(t.pos) && !t.stop);
  return names(tokens.slice(0, at - 1)) && names(tokens.slice(at + 1));
}

/** How something went, said of it after: "testing went fine", "the migration went smoothly". */
const WENT = new Set(['fine', 'well', 'smoothly', 'ok', 'okay', 'great', 'good', 'perfectly', 'alright']);

/**
 * A pointing subject, a verb of being or seeming, then an adjective: "that's great", "this seems
 * off"; or how something went: "testing went fine".
 */
export function evaluation(tokens: readonly Token[]): boolean {
  if (tokens.some((t, i) => t.lower === 'went' && tokens.slice(i + 1, i + 3).some((x) => WENT.has(x.lower)))) return true;
  for (let i = 0; i + 2 < tokens.length; i++) {
    const t = tokens[i] as Token;
    if (!L.DEICTIC.has(t.lower) || t.pos === 'DET') continue;
    const verb = tokens[i + 1] as Token;
    if (!L.SEEMING.has(verb.lemma)) continue;
    if (tokens.slice(i + 2, i + 5).some((x) => x.pos === 'ADJ')) return true;
  }
  return false;
}

/** Verbs of what a screen or a program shows or does, as someone watching it reports it. */
const SHOWS = new Set(
  `show shows showing showed shown display displays displaying displayed say says saying said
  hide hides hiding hid render renders rendering rendered`.split(/\s+/),
);
/** Words before such a verb that make it what was seen at the moment: "it just shows", "still says", "even hides". */
const AT_THE_MOMENT = new Set(['just', 'still', 'only', 'even', 'now']);
/** Past forms: "the message never showed" tells what happened, not a rule about what never shows. */
const SHOWED = new Set(['showed', 'shown', 'displayed', 'said', 'hid', 'rendered']);

/**
 * What the person saw the program do, a bug report of the moment: "the pet owner is showing black",
 * "it just shows a dark blue screen", "it even hides the user's own video", "the message never
 * showed". Not "the header shows the user's name", which says how it is built.
 */
export function seenBehaving(tokens: readonly Token[]): boolean {
  return tokens.some((t, i) => {
    if (!SHOWS.has(t.lower)) return false;
    const before = tokens[i - 1]?.lower ?? '';
    if (AT_THE_MOMENT.has(before)) return true;
    if ((before === 'is' || before === 'are' || before === 'keeps') && t.lower.endsWith('ing')) return true;
    return before === 'never' && SHOWED.has(t.lower);
  });
}

/** "let's use Postgres", "we'll go with option B", "we're going to drop it", "we decided on REST". */
export function proposal(tokens: readonly Token[]): boolean {
  const i = firstWord(tokens);
  const a = tokens[i]?.lower;
  const b = tokens[i + 1]?.lower;
  if (a === "let's" || a === 'lets' || (a === 'let' && (b === "'s" || b === 'us'))) return true;
  if (a !== 'we') return false;
  const rest = tokens.slice(i + 1, i + 4).map((t) => t.lemma);
  return rest[0] === 'decide' || rest[0] === 'agree' || rest[0] === 'will' || (rest[0] === 'be' && rest[1] === 'go');
}

/** "Let's see if it builds", "let's check the logs": a proposal to look or try, done once. */
export function tryingOut(tokens: readonly Token[]): boolean {
  const i = firstWord(tokens);
  const a = tokens[i]?.lower;
  const verb =
    a === 'let'
      ? tokens[i + (tokens[i + 1]?.lower === "'s" || tokens[i + 1]?.lower === 'us' ? 2 : 1)]
      : a === "let's" || a === 'lets'
        ? tokens[i + 1]
        : undefined;
  return verb !== undefined && L.LOOK_VERBS.has(verb.lemma);
}

/** "✅ **COMPLETED**: …", "⏳ PENDING: …": a work item's status, as an agent reports it. */
export const STATUS_LINE =
  /^\s*(?:\p{Extended_Pictographic}\uFE0F?\s*)?(?:\*\*)?(?:COMPLETED|PENDING|IN PROGRESS|DONE|TODO|FAILED|BLOCKED)(?:\*\*)?\s*:|^\s*[✅⏳🔄❌]/u;
/** "💭 Summary: …", "🚫 Reason: …": a label behind an emoji is how a program formats its output, not how a person types. */
export const EMOJI_LABEL = /^\s*\p{Extended_Pictographic}\uFE0F?\s*\p{L}[\p{L}\p{M} ]{0,30}:\s/u;
/** "**Solution**: …": a bold label is how an agent writes, not how a person types. */
export const BOLD_LABEL = /^\s*(?:\p{Extended_Pictographic}\uFE0F?\s*)?\*\*[^*\n]{1,40}\*\*\s*:/u;
/** "Here's what I would like the application to do.": it announces what follows and says nothing itself. */
export const INTRO = /^\s*(?:so,?\s+|ok,?\s+)?here(?:'s| is| are)\b/i;
/** "I wish we had a dry-run flag", "I wish it could export PDFs": a wish for what is not there yet, asked of the agent. */
export const WISHED_FOR = /\bwish(?:ed)?\s+(?:that\s+)?(?:we|i|you|it|there|this|the \w+)\s+(?:had|could|were|was|would|did)\b/i;
/** "getting this on staging:": it leads into what was pasted or listed after it. */
export const LEADS_IN = /:\s*$/;
/** "heads up, we changed the flow": news announced, told in the sentence after it when it names nothing. */
export const ANNOUNCES = /^\s*(?:heads[- ]up|fyi|just so you know|quick note)\b/i;

/** "do we need to run daemons?", "should I rebase?": asking what is needed, not telling it. */
export const ASKS_NEED = /\b(?:do|does|should|must|shall|would)\s+(?:we|i)\s+(?:need|have|really|still|also)?\b|\bshould\s+(?:we|i)\b/i;

/** "…, continue.", "sorry about that ... proceed": the sentence ends by letting the agent go on. */
export function endsGoingOn(tokens: readonly Token[]): boolean {
  const words = tokens.filter((t) => t.kind !== 'punctuation');
  const last = words[words.length - 1];
  const before = tokens[tokens.indexOf(last as Token) - 1];
  return last !== undefined && words.length > 1 && before?.kind === 'punctuation' && L.GO_AHEAD.has(last.lower);
}

/** "Before you go too deep, …" at `i`: a condition met once, in the task in hand. */
const metOnce = (tokens: readonly Token[], i: number): boolean =>
  HABIT_TIMES.has(tokens[i]?.lower ?? '') && AGENTS.has(tokens[i + 1]?.lower ?? '') && goesFurther(tokens, i + 2);

/**
 * "Before you go too deep, look for similar projects", "before we continue, save your state": the
 * command after a condition met once in the task in hand, a task of the moment and no rule; where
 * its verb is, or -1.
 */
export function commandAfterOnce(tokens: readonly Token[], text: string): number {
  const i = firstWord(tokens);
  if (!metOnce(tokens, i)) return -1;
  const comma = tokens.findIndex((t) => t.text === ',');
  const cut = text.indexOf(',');
  if (comma < 0 || cut < 0) return -1;
  const at = commandAt(tokens.slice(comma + 1), text.slice(cut + 1));
  return at < 0 ? -1 : comma + 1 + at;
}

/**
 * "When you touch the migrations, run make check first", "for each endpoint, add a test": a
 * condition or the cases it holds in, then a command. The command is read in the clause after the
 * first comma of a sentence that opens with a condition, or with "for each …" / "on every …", or
 * after a "please" that ends the condition.
 */
export function conditionalCommand(tokens: readonly Token[], text: string): boolean {
  const i = firstWord(tokens);
  const first = tokens[i];
  const cases = CASE_PREPOSITIONS.has(first?.lower ?? '') && EVERY.has(tokens[i + 1]?.lower ?? '') && !EACH_OF.has(tokens[i + 2]?.lower ?? '');
  if (first === undefined || (!L.CONDITIONS.has(first.lower) && !cases)) return false;
  if (metOnce(tokens, i)) return false;
  // "When you touch the billing module please run the contract tests": "please" ends the
  // condition where no comma does; "if you could please …", "if you have a minute please …" only
  // ask politely.
  const please = tokens.findIndex((t, k) => k > i + 1 && t.lower === 'please');
  // The same "please" in the text: as many come before it there as among the tokens.
  const asked = [...text.matchAll(/\bplease\b/gi)][tokens.slice(0, please).filter((t) => t.lower === 'please').length];
  const polite = please >= 0 && tokens.slice(i + 1, please).some((x) => x.pos === 'AUX' || POLITE.has(x.lemma));
  if (please >= 0 && asked !== undefined && !polite && commandAt(tokens.slice(please + 1), text.slice(asked.index + asked[0].length)) >= 0) return true;
  const comma = tokens.findIndex((t) => t.text === ',');
  if (comma < 0 || comma >= tokens.length - 2) return false;
  const rest = tokens.slice(comma + 1);
  const at = text.indexOf(',');
  return commandAt(rest, at < 0 ? text : text.slice(at + 1)) >= 0;
}

/** Words of a condition that only asks politely: "if you have a minute", "if it's no trouble". */
const POLITE = new Set(['mind', 'trouble', 'minute', 'moment', 'second', 'time', 'chance', 'possible', 'able', 'want', 'like']);

/** Verbs of getting on with the task in hand: "before you go too deep", "before we continue". */
const PROGRESS = new Set(['go', 'get', 'dive', 'dig', 'delve', 'proceed', 'continue', 'start', 'begin', 'jump', 'move', 'carry']);
const OBJECT = new Set(['DET', 'NOUN', 'PROPN', 'NUM', 'PRON']);

/**
 * "before you go too deep", "before we start,": the condition is how far the task in hand has got,
 * met once; with what it goes into ("when you start a new feature", "before you go to
 * production") it is an event of the work, met each time.
 */
function goesFurther(tokens: readonly Token[], at: number): boolean {
  const verb = tokens[at];
  if (verb === undefined || !PROGRESS.has(verb.lemma)) return false;
  const [next, after] = [tokens[at + 1], tokens[at + 2]];
  const object = OBJECT.has(next?.pos ?? '') || (next?.pos === 'ADP' && OBJECT.has(after?.pos ?? ''));
  return !object;
}

/**
 * "before you commit", "after each change", "before touching any code": a condition on the work
 * itself, which makes a task a habit; "while the payment is processed" or "while showing the
 * vision" only places the task. Without `once`, a condition met once ("once you're done") is not
 * read as one.
 */
export function isHabitual(tokens: readonly Token[], once = true): boolean {
  return tokens.some((t, i) => {
    if (!HABIT_TIMES.has(t.lower) || (!once && t.lower === 'once')) return false;
    const [a, b] = [tokens[i + 1], tokens[i + 2]];
    return (
      (AGENTS.has(a?.lower ?? '') && !goesFurther(tokens, i + 2)) ||
      (a?.pos === 'VERB' && /ing$/.test(a.lower)) ||
      (t.lower !== 'once' && EVERY.has(a?.lower ?? '')) ||
      EVERY.has(b?.lower ?? '')
    );
  });
}

/**
 * "for every endpoint", "on each push" make a task a habit; "map each output" only counts its
 * objects, and so does "for each one" or "for each of them", which points back at them, and "search
 * for any …", "check for any …", whose preposition is the command's own (`verbAt`: where the
 * command's verb is, which the tagger may have read as a name).
 */
export function coversEveryCase(tokens: readonly Token[], verbAt = -1): boolean {
  return tokens.some(
    (t, i) =>
      EVERY.has(t.lower) &&
      CASE_PREPOSITIONS.has(tokens[i - 1]?.lower ?? '') &&
      !(i - 2 === verbAt || tokens[i - 2]?.pos === 'VERB') &&
      !EACH_OF.has(tokens[i + 1]?.lower ?? ''),
  );
}

/** Bound to the day it is said: "today", "tonight", "this session". */
export const dayBound = (lower: readonly string[]): boolean => lower.some((w) => TODAY.has(w)) || hasPhrase(lower, TODAY_PHRASES);

/** "It should not be this way", "it shouldn't be like that": a complaint about what is seen, no rule. */
function complains(tokens: readonly Token[], at: number): boolean {
  const rest = tokens
    .slice(at + 1, at + 5)
    .map((t) => t.lower)
    .filter((w) => w !== 'not' && w !== "n't");
  return rest[0] === 'be' && ((rest[1] === 'this' && rest[2] === 'way') || (rest[1] === 'like' && (rest[2] === 'this' || rest[2] === 'that')));
}

/** What "should" expects to happen, not what it asks: "pass", "work", "fix it". */
const EXPECTED = new Set(['work', 'fix', 'pass', 'succeed', 'compile', 'help']);
/** A state a change is expected to have brought about: "now we should be clean". */
const SETTLED = new Set(['fine', 'ok', 'okay', 'good', 'clean', 'ready', 'done', 'fixed', 'set', 'better', 'sorted', 'safe', 'green', 'gone']);

/**
 * "I removed the repo, so now we should be clean", "now the tests should pass", "that should fix
 * it": "should" in a consequence (", so …"), after "now" with a settled state or an outcome, or
 * after a change pointed at that should fix or help, says what the speaker expects and asks
 * nothing. "Do it so that the page should be fast", "now the API should be stateless" still ask.
 */
function expects(tokens: readonly Token[], at: number): boolean {
  const before = tokens.slice(0, at).map((t) => t.lower);
  const [next, after] = [tokens[at + 1], tokens[at + 2]];
  // "That should fix it", "this should help": a change just made, and what it is expected to do
  // ("this should work offline" may ask it).
  if (['that', 'this'].includes(before[before.length - 1] ?? '') && (next?.lemma === 'fix' || next?.lemma === 'help')) return true;
  const outcome = EXPECTED.has(next?.lemma ?? '');
  const consequence = before.some((w, i) => w === 'so' && (i === 0 || before[i - 1] === ',') && before[i + 1] !== 'that');
  if (consequence) return outcome || (next?.lemma === 'be' && after?.pos === 'ADJ');
  const now = before.slice(-3).includes('now') && !hasPhrase(before, [['from', 'now', 'on']]);
  return now && (outcome || (next?.lemma === 'be' && SETTLED.has(after?.lower ?? '')));
}

/**
 * A modal of duty ("must", "should") that directs someone: not one inside what a question or a
 * relative clause is about ("none of them know what it should produce"), a complaint about what
 * is seen, or an expectation.
 */
export function asksDuty(tokens: readonly Token[]): boolean {
  return tokens.some(
    (t, i) =>
      L.DEONTIC.has(t.lower) && !tokens.slice(Math.max(0, i - 3), i).some((x) => L.RELATIVES.has(x.lower)) && !complains(tokens, i) && !expects(tokens, i),
  );
}
