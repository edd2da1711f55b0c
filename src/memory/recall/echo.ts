/**
 * One answer says each thing once. A memory is distilled from a past message, and recall can find
 * both: the memory and the excerpt of the session it came from, word for word. The excerpt gives
 * way, since the memory is the shorter and the one kept current. Two memories that say one thing
 * in other words (a rule and the summary line that restates it) are one item too.
 */

import { subjectAndValues } from '../nlp/text.js';

/** What an answer's item says, for telling repeats apart. */
export interface Said {
  /** Normalised text (`dedupeKey`). */
  wording: string;
  /** An excerpt of a past session: its message, `session#message`. Absent for a memory. */
  message?: string | undefined;
  /** A memory: the messages it was taken from, `session#message`. */
  sources?: readonly string[] | undefined;
  /** Identity: items with the same key say the same thing. */
  slot?: string | undefined;
}

export const messageKey = (sessionId: string, messageId: string): string => `${sessionId}#${messageId}`;

/** Whether one normalised text holds the other as whole words (an empty text holds nothing). */
export function holds(a: string, b: string): boolean {
  if (a === '' || b === '') return false;
  return ` ${a} `.includes(` ${b} `) || ` ${b} `.includes(` ${a} `);
}

/** Whether `excerpt`, an excerpt of a past session, repeats `memory`: taken from its message, or the same words. */
export function echoes(excerpt: Said, memory: Said): boolean {
  if (excerpt.message === undefined || memory.message !== undefined) return false;
  return (memory.sources?.includes(excerpt.message) ?? false) || holds(excerpt.wording, memory.wording);
}

/** Share of the shorter memory's content words the other must hold for the two to say one thing. */
const RESTATES_SHARE = 0.7;
/** Fewer content words than this are too few to tell a restatement from a shared topic. */
const RESTATES_MIN_TERMS = 4;

type Content = { subject: ReadonlySet<string>; values: readonly string[] };
/** Bounded: a recall compares the wordings of one block, a session's prompts a few more. */
const contents = new Map<string, Content>();
const CONTENTS_MAX = 4096;

function contentOf(wording: string): Content {
  let c = contents.get(wording);
  if (c === undefined) {
    // The oldest go first: what every session start recalls stays.
    if (contents.size >= CONTENTS_MAX) for (const k of [...contents.keys()].slice(0, CONTENTS_MAX / 4)) contents.delete(k);
    const { subject, values } = subjectAndValues(wording);
    c = { subject: new Set(subject), values };
  } else contents.delete(wording);
  contents.set(wording, c);
  return c;
}

const restated = (x: Content, y: Content, shared: number): boolean => {
  const [short, long] = x.subject.size <= y.subject.size ? [x, y] : [y, x];
  return short.subject.size >= RESTATES_MIN_TERMS && shared >= RESTATES_SHARE * short.subject.size && short.values.every((v) => long.values.includes(v));
};

/** How many content words two memories share. */
function sharedTerms(x: Content, y: Content): number {
  let shared = 0;
  for (const w of x.subject) if (y.subject.has(w)) shared++;
  return shared;
}

/**
 * Past an opening the two share word for word ("Keep in mind for future sessions in this repo: …"):
 * framing said before each statement is not what they say, so its words are left out of both. One
 * that opens the other whole is a restatement of it.
 */
function restatedPastOpening(a: string, x: Content, b: string, y: Content): boolean {
  let p = 0;
  const end = Math.min(a.length, b.length);
  while (p < end && a.charCodeAt(p) === b.charCodeAt(p)) p++;
  // Back to the last whole word they share.
  const whole = p === end && (a.length === b.length || (a.length > end ? a[end] : b[end]) === ' ');
  const opening = whole ? p : a.lastIndexOf(' ', p - 1);
  if (opening <= 0) return true;
  if (whole) return true;
  const framing = contentOf(a.slice(0, opening)).subject;
  const rest = (c: Content): Content => ({ subject: new Set([...c.subject].filter((w) => !framing.has(w))), values: c.values });
  const rx = rest(x);
  const ry = rest(y);
  return restated(rx, ry, sharedTerms(rx, ry));
}

/**
 * Whether two memories say one thing in other words: the longer holds most of the shorter's
 * content words and every value it states, past any opening they share word for word. "mix
 * ash.codegen for migrations (they often need SQLite fixes)" and "Auto-generated migrations from
 * mix ash.codegen should always be rewritten for SQLite" do; "port 5432" and "port 5433" do not,
 * nor do two statements after the same "Keep in mind for future sessions:".
 */
export function restates(a: string, b: string): boolean {
  const x = contentOf(a);
  const y = contentOf(b);
  return restated(x, y, sharedTerms(x, y)) && restatedPastOpening(a, x, b, y);
}

/**
 * The memories of one answer, by their content words, to tell a new one that restates any of them
 * without comparing it with each in turn (a block holds about eighty).
 */
export class Restatements {
  private readonly kept: { wording: string; content: Content }[] = [];
  private readonly byTerm = new Map<string, number[]>();
  /** Shared words per kept memory, reused by every look (most looks touch a few). */
  private shared = new Uint16Array(128);

  add(wording: string): void {
    const c = contentOf(wording);
    // Fewer words than a restatement needs: it never restates anything, nor is restated.
    if (c.subject.size < RESTATES_MIN_TERMS) return;
    const at = this.kept.push({ wording, content: c }) - 1;
    if (at >= this.shared.length) {
      const grown = new Uint16Array(this.shared.length * 2);
      grown.set(this.shared);
      this.shared = grown;
    }
    for (const w of c.subject) {
      const list = this.byTerm.get(w);
      if (list === undefined) this.byTerm.set(w, [at]);
      else list.push(at);
    }
  }

  /** Whether `wording` says what one of the memories added says. */
  has(wording: string): boolean {
    if (this.kept.length === 0) return false;
    const c = contentOf(wording);
    if (c.subject.size < RESTATES_MIN_TERMS) return false;
    const touched: number[] = [];
    for (const w of c.subject)
      for (const at of this.byTerm.get(w) ?? []) {
        if (this.shared[at] === 0) touched.push(at);
        this.shared[at] = (this.shared[at] ?? 0) + 1;
      }
    let found = false;
    for (const at of touched) {
      const k = this.kept[at];
      if (!found && k !== undefined && restated(c, k.content, this.shared[at] ?? 0) && restatedPastOpening(wording, c, k.wording, k.content)) found = true;
      this.shared[at] = 0;
    }
    return found;
  }
}

/** Share of a memory's words a line of the agent's record must hold to say the memory already. */
const RECORD_HOLDS = 0.8;
/** Fewer words than this are too few to tell a repeat from a shared topic. */
const RECORD_MIN_WORDS = 4;

/**
 * Whether a line of the agent's record (its words, normalised) already says what a memory says: a
 * request the person typed and the "Built: … (as asked)" line it became. The record's line stays,
 * since it says that the work was done.
 */
export function recordSays(record: ReadonlySet<string>, wording: string): boolean {
  const words = wording.split(' ').filter((w) => w !== '');
  return words.length >= RECORD_MIN_WORDS && words.filter((w) => record.has(w)).length >= RECORD_HOLDS * words.length;
}
