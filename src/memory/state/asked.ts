/**
 * What the person asked for, read from a typed message the agent answered by writing files: the
 * first sentence that asks for a change ("Move the size legend above the chart", "let's add a
 * toggle for inflation"), from its verb on, with the list it leads into. It is the agent's record
 * of a change where no commit names it; a go-ahead ("continue", "do it"), a question, a look, a
 * rule or a story asks for nothing of its own.
 */
import { analyze } from '../nlp/index.js';
import { CHORE_VERBS, GO_AHEAD, INQUIRY_VERBS, NEGATORS, planStepName, PREFERENCE, RELATIVE_TIME, TASK_VERBS } from '../nlp/lexicon.js';
import { commandAt, NOT_A_VERB, wishedVerbAt } from '../nlp/mood.js';
import type { Sentence, Token } from '../nlp/types.js';

/** Content words a request needs to say what it changes ("fix it" does not). */
const NAMED_MIN = 2;
/** Only the head of a long message is read: a request comes first, pasted output after it. */
const READ_MAX = 1200;

/**
 * Verbs that look, ask or explain (what the agent then wrote was a note, not the change asked for),
 * verbs that only carry on with work already set ("finish the rest", "get started", "make sure
 * it is done"), a leave to the agent ("feel free to …"), a reminder (a rule: "remember to …"), and
 * operations on the repository or the running system ("commit everything", "push that", "restart
 * the server"; a commit is recorded as itself): none names a change of its own.
 */
const NOT_A_CHANGE: ReadonlySet<string> = new Set([
  ...INQUIRY_VERBS,
  ...CHORE_VERBS,
  ...`explain show tell describe summarize summarise list print give ensure finish complete get keep start begin resume wrap ready make
  deploy run feel remember`.split(/\s+/),
]);
/** "make" names a change when it makes something ("make the grid square"), not "make sure". */
const MAKES = (rest: readonly Token[]): boolean => rest[0]?.lower !== 'sure' && rest[0]?.lower !== 'certain';
/** "take" names a look or a pause, not a change, when what it takes is one: "take a look at the docs", "take some notes". */
const TAKEN = /^(?:(?:a|another|some|quick|short|closer|good|few|\s)+)?(?:look|peek|glance|notes?|break|beat|moment|minute|stab|pass)\b/i;
/** What a request points at without naming it: "remove that and commit", "fix it". */
const POINTED = new Set(['it', 'that', 'this', 'those', 'these', 'them']);
const pointsOnly = (rest: readonly Token[]): boolean =>
  POINTED.has(rest[0]?.lower ?? '') && (rest[1] === undefined || rest[1].pos === 'CCONJ' || rest[1].kind === 'punctuation');

/** A step of a plan already set, named by its place in it: "implement phase 2", "do the next step". */
const PLAN_STEP = new RegExp(String.raw`^${planStepName(true)}\s*[.!]*$`, 'i');

/** Words that make a request a standing rule, and a plural subject's verb (the sentence states, it does not ask). */
const LASTING = new Set(['always', 'never', 'every', 'each', 'whenever', 'are', 'were']);

/** Where pasted output starts (a traceback, a stack frame, an error line, a prompt, a fence): nothing after it is asked. */
const OUTPUT_LINE = /^\s*(?:Traceback \(most recent call last\)|File "|at [\w.$<>]+ ?\(|[\w.]*(?:Error|Exception):|\$ |> |```)/;
const BULLET = /^\s*(?:[-*•]|\d+[.)])\s+/;
/** A line that introduces a list of rules, not of changes: "House rules, keep to them:". */
const RULES = /\b(?:rules?|conventions?|guidelines?|principles?|constraints?)\b/i;
/** A short label before a colon: "Task: …", "Next step: …". */
const LABEL = /^\s*[\p{L}][\p{L} ]{0,20}:\s+(?=\S)/u;

const ABOUT_THE_CHAT = /\b(?:this|the current) (?:chat|conversation|session|thread)\b/i;

/** Words that name what is changed: not stop words, not "again" or "now" (which say when). */
const isContent = (t: Token): boolean =>
  t.kind !== 'punctuation' && t.kind !== 'symbol' && !t.stop && t.pos !== 'AUX' && t.pos !== 'INTJ' && !RELATIVE_TIME.has(t.lower);

/**
 * Verbs that only go on with what is on the table ("continue", "proceed", "go ahead"); "implement"
 * names a change when what it implements is named ("implement room name generation"), which the
 * check on named content words then asks of it.
 */
const goesOn = (lemma: string): boolean => GO_AHEAD.has(lemma) && lemma !== 'implement';

/** A verb that changes something, at `at`: where it is, or -1. */
const changeAt = (tokens: readonly Token[], at: number): number => {
  const verb = tokens[at];
  return verb !== undefined && verb.pos === 'VERB' && TASK_VERBS.has(verb.lemma) && !goesOn(verb.lemma) ? at : -1;
};

/** "let's add …": a proposal of the team with a verb that changes something; where its verb is, or -1. */
function proposedChange(tokens: readonly Token[]): number {
  const i = tokens.findIndex((t, k) => t.lower === "let's" || t.lower === 'lets' || (t.lower === 'let' && /^(?:'s|’s|us)$/.test(tokens[k + 1]?.lower ?? '')));
  if (i < 0) return -1;
  // "let 's add" is two words before its verb, "lets add" one.
  const from = tokens[i]?.lower === 'let' ? i + 2 : i + 1;
  return changeAt(
    tokens,
    tokens.findIndex((t, k) => k >= from && t.pos === 'VERB'),
  );
}

/** "I'd like (you) to add …", "I want to add …": where the verb of the change wished for is, or -1. */
function wishedChange(tokens: readonly Token[]): number {
  const at = wishedVerbAt(tokens);
  return at < 0 ? -1 : changeAt(tokens, at);
}

/** The list items right after line `i` (a request's parts, or the requests after it in its list), as one run ("a; b; c"). */
function listAfter(lines: readonly string[], i: number): string {
  const items: string[] = [];
  for (let j = i + 1; j < lines.length && BULLET.test(lines[j] ?? ''); j++) items.push((lines[j] ?? '').replace(BULLET, '').trim());
  return items.join('; ');
}

/** The sentence from its verb on when it asks for a change; `leadsIntoList`: a list follows it. */
function asked(sentence: Sentence, leadsIntoList: boolean): string | undefined {
  // "Task: add the tides endpoint" is read after its label.
  const label = LABEL.exec(sentence.text);
  const s = label === null ? sentence : analyze(sentence.text.slice(label[0].length))[0];
  if (s === undefined || /\?\s*$/.test(s.text)) return undefined;
  const command = commandAt(s.tokens, s.text);
  // "Let's add …" is read by the verb after "let's".
  const commanded = command >= 0 && !goesOn(s.tokens[command]?.lemma ?? '') && s.tokens[command]?.lower !== 'let';
  const proposed = commanded ? -1 : proposedChange(s.tokens);
  const at = commanded ? command : proposed >= 0 ? proposed : wishedChange(s.tokens);
  const verb = s.tokens[at];
  // "PropertyInitialized, SharesPurchased": a name in code, however the tagger read it.
  if (verb === undefined || !/^[a-z]+$/i.test(verb.text) || /[a-z][A-Z]/.test(verb.text) || NOT_A_VERB.has(verb.lower) || PREFERENCE.has(verb.lemma))
    return undefined;
  const rest = s.tokens.slice(at + 1);
  // "Don't use anything that needs 22": a prohibition, never a change carried out.
  if (s.tokens.slice(0, at).some((t) => NEGATORS.has(t.lower) || t.lower === "don't" || t.lower === 'dont')) return undefined;
  if (NOT_A_CHANGE.has(verb.lemma) && !(verb.lemma === 'make' && MAKES(rest))) return undefined;
  const object = rest.map((t) => t.text).join(' ');
  if ((verb.lemma === 'take' && TAKEN.test(object)) || PLAN_STEP.test(object) || pointsOnly(rest)) return undefined;
  // What the tagger took for a verb names a thing: "Phase 1 - …", "Vault linked but …" (a noun and
  // its participle), "Scan_accounts states …" (part of a name).
  const next = rest[0];
  if (next !== undefined && (next.pos === 'NUM' || next.kind === 'number' || (next.pos === 'VERB' && /ed$/.test(next.lower)))) return undefined;
  const from = s.text.search(new RegExp(`(?<![\\w-])${verb.text}(?![\\w-])`));
  if (from < 0) return undefined;
  // "Note: the endpoint 404s" labels what follows, a colon with no list after it leads nowhere, "run
  // the migration again" repeats a moment, "commit each fix on its own" is a rule, and "Answer +
  // commits are good" has a subject: none of them is one change asked for.
  if (
    rest[0]?.text === ':' ||
    (/:\s*$/.test(s.text) && (!leadsIntoList || RULES.test(s.text))) ||
    s.tokens.some((t) => t.lower === 'again' || LASTING.has(t.lower))
  )
    return undefined;
  // "Export a transcript of this chat": work on the conversation itself, not on the project.
  if ((rest.filter(isContent).length < NAMED_MIN && !leadsIntoList) || ABOUT_THE_CHAT.test(s.text)) return undefined;
  // From its verb on: "Great, let's add a toggle" is recorded as "add a toggle".
  const said = s.text.slice(from).trim();
  return said.charAt(0).toUpperCase() + said.slice(1);
}

/** A label of a screen: a few capitalised words or figures, no sentence's end ("Current Balance", "0.00 USDC"). */
const SCREEN_LABEL = /^\s*[\p{Lu}\d][^\s]*(?:\s+[\p{Lu}\d][^\s]*){0,3}\s*$/u;
/** Labels in a row this long are a screen the person pasted, not lines they wrote. */
const SCREEN_RUN = 3;
const screenAt = (lines: readonly string[], i: number): boolean =>
  lines.length >= i + SCREEN_RUN && lines.slice(i, i + SCREEN_RUN).every((l) => SCREEN_LABEL.test(l) && !/[.!?:;]\s*$/.test(l) && !BULLET.test(l));

/** The sentence of `text` that asks for a change, or undefined when it asks for none. */
export function askedChange(text: string): string | undefined {
  const head = text.slice(0, READ_MAX);
  // Pasted JSON is not the person's request, nor anything after pasted output.
  if (/^\s*[[{]/.test(head)) return undefined;
  const lines = head.split(/\n+/);
  const pasted = lines.findIndex((l, i) => OUTPUT_LINE.test(l) || screenAt(lines, i));
  const read = pasted < 0 ? lines : lines.slice(0, pasted);
  // Line by line: a list's items are sentences of their own, whatever their punctuation.
  for (const [i, line] of read.entries()) {
    const sentences = analyze(line.replace(BULLET, ''));
    for (const [k, sentence] of sentences.entries()) {
      // The list a line's last sentence leads into is part of what it asks ("Create these files:").
      const list = k === sentences.length - 1 ? listAfter(read, i) : '';
      const said = asked(sentence, list !== '');
      if (said === undefined) continue;
      const whole = list === '' ? said : `${said.replace(/[.;,]$/, '')}${said.endsWith(':') ? ' ' : '; '}${list}`;
      return whole;
    }
  }
  return undefined;
}
