/**
 * One answer says each thing once. A memory is distilled from a past message, and recall can find
 * both: the memory and the excerpt of the session it came from, word for word. The excerpt gives
 * way, since the memory is the shorter and the one kept current. Two memories that say one thing
 * in other words (a rule and the summary line that restates it) are one item too.
 */

import { negated, subjectAndValues } from '../nlp/text.js';

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

/** A wording's content words (stemmed, in order and as a set), the numbers it states, and whether it says "not". */
type Content = { words: readonly string[]; subject: ReadonlySet<string>; values: readonly string[]; negated: boolean };
/**
 * Bounded, in two generations: a recall reads the wordings of one block, and what every session
 * start recalls stays in the newer one; the older is dropped whole when the newer fills.
 */
let recent = new Map<string, Content>();
let older = new Map<string, Content>();
const GENERATION = 2048;

function contentOf(wording: string): Content {
  let c = recent.get(wording);
  if (c !== undefined) return c;
  c = older.get(wording);
  if (c === undefined) {
    const { subject, values } = subjectAndValues(wording);
    c = { words: subject, subject: new Set(subject), values, negated: negated(wording) };
  }
  if (recent.size >= GENERATION) {
    older = recent;
    recent = new Map();
  }
  recent.set(wording, c);
  return c;
}

const restated = (x: Content, y: Content, shared: number): boolean => {
  const [short, long] = x.subject.size <= y.subject.size ? [x, y] : [y, x];
  return (
    x.negated === y.negated &&
    short.subject.size >= RESTATES_MIN_TERMS &&
    shared >= RESTATES_SHARE * short.subject.size &&
    short.values.every((v) => long.values.includes(v))
  );
};

/** How many content words two memories share. */
function sharedTerms(x: Content, y: Content): number {
  let shared = 0;
  for (const w of x.subject) if (y.subject.has(w)) shared++;
  return shared;
}

/** Words in the same order in both: the longest common subsequence of two word lists. */
function commonInOrder(x: readonly string[], y: readonly string[]): number {
  let prev = new Uint16Array(y.length + 1);
  let row = new Uint16Array(y.length + 1);
  for (const w of x) {
    for (let j = 1; j <= y.length; j++) row[j] = w === y[j - 1] ? (prev[j - 1] ?? 0) + 1 : Math.max(prev[j] ?? 0, row[j - 1] ?? 0);
    [prev, row] = [row, prev];
  }
  return prev[y.length] ?? 0;
}

/** Words of the shorter wording outside what the two say in the same order, at most, for one to be the other's template. */
const SWAPPED_MAX = 2;
const SWAPPED_SHARE = 0.2;

/**
 * How the two are worded, once their content words say one thing:
 * - one holds the other's words in order ("… port 8080" and "… port 8080 in production"): one;
 * - the same words but one or two swapped, on both sides ("Always run pnpm through tools/pnpm.sh"
 *   and "Always run ruff through tools/ruff.sh"): one template, two statements;
 * - an opening they share word for word ("Keep in mind for future sessions in this repo: …") is
 *   framing said before each, not what they say: their content words are compared without it.
 */
function worded(a: string, x: Content, b: string, y: Content): boolean {
  // Content words, stemmed: "deploys need" and "a deploy needs", "the API server" and "API server:
  // it", are the same words, not a swap. Numbers are compared on their own.
  const sa = x.words;
  const sb = y.words;
  const n = Math.min(sa.length, sb.length);
  const common = commonInOrder(sa, sb);
  const outside = n - common;
  if (outside === 0) return true;
  // A swap leaves as many words outside on each side (one more, at most, on the longer).
  if (outside <= Math.max(SWAPPED_MAX, SWAPPED_SHARE * n) && Math.max(sa.length, sb.length) - common <= outside + 1) return false;
  const wa = a.split(' ');
  const wb = b.split(' ');
  let p = 0;
  while (p < wa.length && p < wb.length && wa[p] === wb[p]) p++;
  if (p === 0) return true;
  const framing = contentOf(wa.slice(0, p).join(' ')).subject;
  const rest = (c: Content): Content => {
    const words = c.words.filter((w) => !framing.has(w));
    return { words, subject: new Set(words), values: c.values, negated: c.negated };
  };
  const rx = rest(x);
  const ry = rest(y);
  return restated(rx, ry, sharedTerms(rx, ry));
}

/**
 * Whether two memories say one thing in other words: the same way round (both say "not" or
 * neither), the longer holding most of the shorter's content words and every value it states, and
 * their wording not one template filled twice.
 * "mix ash.codegen for migrations (they often need SQLite fixes)" and "Auto-generated migrations
 * from mix ash.codegen should always be rewritten for SQLite" do; "port 5432" and "port 5433" do
 * not, nor do "Always run pnpm through tools/pnpm.sh" and "Always run ruff through tools/ruff.sh",
 * nor two statements after the same "Keep in mind for future sessions:".
 */
export function restates(a: string, b: string): boolean {
  const x = contentOf(a);
  const y = contentOf(b);
  return restated(x, y, sharedTerms(x, y)) && worded(a, x, b, y);
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
      if (!found && k !== undefined && restated(c, k.content, this.shared[at] ?? 0) && worded(wording, c, k.wording, k.content)) found = true;
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
