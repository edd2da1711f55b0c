/**
 * What the session settled is not how things stand:
 * - trouble it fixed: a report of something going wrong ("the /orders endpoint returns 500", "hay
 *   un bug en el calendario") is left out when the agent then changed files and a check passed or
 *   the person said it works;
 * - work it took up and committed: "still left: the webhook verification", "il reste la politique
 *   de retry" is left out when the agent changed files right after it and a commit that names some
 *   of the same work went through later in the session;
 * - what the person agreed to have done: "yes, we need a full search and replace" after the
 *   agent's "Would you like me to replace it everywhere?" is left out when the agent changed files
 *   right after it and then committed or reported that work done.
 * A lesson said as a rule ("never swallow errors") is neither and stays.
 */
import { DEONTIC, OFFER, OPEN_WORK, SAYS_DONE, standingIn, TASK_VERBS, YES } from '../nlp/lexicon.js';
import { hasOpenWorkMarker, hasStandingMarker } from '../nlp/markers-i18n.js';
import { terms } from '../nlp/text.js';
import type { ExtractMessage } from '../transcripts/types.js';
import type { Unit } from './unit.js';
import { verifiedAfter } from './verified.js';

/**
 * Words that report something going wrong now: errors, failures, crashes, bugs, running out of
 * memory, hanging, timing out (not "issue" or "problem", which also name a tracker's tickets and
 * plans), in the languages people write in, and HTTP server errors.
 */
const TROUBLE =
  /\b(?:errors?|fail(?:s|ed|ing|ure)|crash(?:es|ed|ing)?|broken|bugs?|exceptions?|ooms?|out of memory|memory leaks?|hangs|hanging|timed out|times out|timeouts?|(?:doesn't|does not|don't|isn't|is not) work(?:ing)?|not working|(?:returns?|returning|gives?|throws?|status|http|got)\s+(?:an?\s+)?5\d\d|fehler|kaputt|funktioniert nicht|geht nicht|erreur|plante|marche pas|ne fonctionne pas|falla|fallo|roto|no funciona|erro|quebrado|não funciona)\b|バグ|エラー|動かない|报错|错误|崩溃|不工作/i;
/** How far after the report the fix and its check may come. */
const WINDOW = 40;

const GIT_COMMIT = /\bgit\b(?:\s+-\S+(?:\s+\S+)?)*\s+commit\b/;

function saysHowThingsStand(u: Unit): boolean {
  const lower = u.sentence.tokens.map((t) => t.lower);
  return !standingIn(u.text) && !hasStandingMarker(u.text) && !lower.some((w) => DEONTIC.has(w));
}

const reportsTrouble = (u: Unit): boolean => saysHowThingsStand(u) && TROUBLE.test(u.text);

const namesOpenWork = (u: Unit): boolean => saysHowThingsStand(u) && (hasOpenWorkMarker(u.text) || u.sentence.tokens.some((t) => OPEN_WORK.has(t.lower)));

/**
 * The first message after `i` that changed files, when the agent went to work on it: before the
 * person spoke again, or after they answered a question the agent asked first.
 */
function changedNext(messages: readonly ExtractMessage[], i: number): number | undefined {
  let asked = false;
  for (let j = i + 1; j < messages.length && j <= i + WINDOW; j++) {
    const m = messages[j] as ExtractMessage;
    if (m.kind === 'tool_use' && (m.paths?.length ?? 0) > 0) return j;
    if (m.role === 'assistant' && m.kind === 'text') asked = /\?\s*$/.test(m.text);
    else if (m.role === 'user' && m.kind === 'text' && m.meta !== true && (m.origin === 'typed' || m.origin === 'queued')) {
      if (!asked) return undefined;
      asked = false;
    }
  }
  return undefined;
}

/** The git command's own words, which say nothing of the work. */
const GIT_WORDS = new Set(['git', 'commit', 'add', 'amend', 'message']);

/**
 * Content words by their first five letters, so that a commit written in English meets the work
 * named in another language ("pagination", "paginación").
 */
function heads(text: string): Set<string> {
  return new Set(
    terms(text)
      .filter((w) => w.length >= 4 && !GIT_WORDS.has(w))
      .map((w) => w.slice(0, 5)),
  );
}

/** A `git commit` after message `i` that did not fail and names some of the same work as `said`. */
function committedAfter(messages: readonly ExtractMessage[], i: number, said: string): boolean {
  const named = heads(said);
  for (let j = i + 1; j < messages.length; j++) {
    const m = messages[j] as ExtractMessage;
    if (m.kind !== 'tool_use' || !GIT_COMMIT.test(m.command ?? '')) continue;
    const result = messages.slice(j + 1).find((r) => r.kind === 'tool_result');
    if (result?.isError !== true && [...heads(m.command ?? '')].some((w) => named.has(w))) return true;
  }
  return false;
}

/** The agent said after message `i`, before the person spoke again, that it did work naming some of `said`. */
function reportedDoneAfter(messages: readonly ExtractMessage[], i: number, said: string): boolean {
  const named = heads(said);
  for (let j = i + 1; j < messages.length && j <= i + WINDOW; j++) {
    const m = messages[j] as ExtractMessage;
    if (m.role === 'user' && m.kind === 'text' && m.meta !== true && (m.origin === 'typed' || m.origin === 'queued')) return false;
    if (m.role !== 'assistant' || m.kind !== 'text') continue;
    for (const sentence of m.text.split(/(?<=[.!?])\s+|\n+/))
      if (SAYS_DONE.test(sentence) && !/\?\s*$/.test(sentence) && [...heads(sentence)].filter((w) => named.has(w)).length >= 2) return true;
  }
  return false;
}

/**
 * Message `k` opens with a yes to what the agent offered to do in its message before ("Would you
 * like me to update it?" → "yes, we need a comprehensive search and replace").
 */
function acceptsOffer(messages: readonly ExtractMessage[], k: number): boolean {
  const first = /^\W*([\p{L}]+)/u.exec(messages[k]?.text ?? '')?.[1]?.toLowerCase();
  if (first === undefined || !YES.has(first)) return false;
  for (let j = k - 1; j >= 0; j--) {
    const m = messages[j] as ExtractMessage;
    if (m.role === 'assistant' && m.kind === 'text') return m.text.split(/(?<=[.!?:])\s+|\n+/).some((l) => OFFER.test(l));
    if (m.role === 'user' && m.kind === 'text' && m.meta !== true) return false;
  }
  return false;
}

/**
 * Names work to do ("we need a search and replace", "let's make a folder for them"), not how a thing
 * is or should be ("the source type would be more like camera-still-capture"), which stands once done.
 */
const namesTask = (u: Unit): boolean =>
  u.sentence.tokens.some((t) => t.pos === 'VERB' && (TASK_VERBS.has(t.lemma) || t.lemma === 'need')) && !u.sentence.tokens.some((t) => t.lemma === 'be');

function takenUpAndDone(messages: readonly ExtractMessage[], i: number, said: string): boolean {
  const changed = changedNext(messages, i);
  return changed !== undefined && (committedAfter(messages, changed, said) || reportedDoneAfter(messages, changed, said));
}

function takenUpAndCommitted(messages: readonly ExtractMessage[], i: number, said: string): boolean {
  const changed = changedNext(messages, i);
  return changed !== undefined && committedAfter(messages, changed, said);
}

/** After message `i`, files were changed and the change was then verified. */
function fixedAfter(messages: readonly ExtractMessage[], i: number): boolean {
  for (let j = i + 1; j < messages.length && j <= i + WINDOW; j++) {
    const m = messages[j] as ExtractMessage;
    if (m.kind === 'tool_use' && (m.paths?.length ?? 0) > 0) return verifiedAfter(messages, j);
  }
  return false;
}

/** Indexes of the person's reports of trouble the session then fixed, of open work it then did and committed, and of work they agreed to that it then did. */
export function fixedIndexes(units: readonly Unit[], messages: readonly ExtractMessage[]): Set<number> {
  const at = new Map(messages.map((m, i) => [m.id, i]));
  const out = new Set<number>();
  units.forEach((u, i) => {
    const k = at.get(u.messageId);
    if (u.source !== 'typed' || k === undefined) return;
    if (
      (reportsTrouble(u) && fixedAfter(messages, k)) ||
      (namesOpenWork(u) && takenUpAndCommitted(messages, k, u.text)) ||
      (saysHowThingsStand(u) && namesTask(u) && acceptsOffer(messages, k) && takenUpAndDone(messages, k, u.text))
    )
      out.add(i);
  });
  return out;
}
