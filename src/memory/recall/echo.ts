/**
 * One answer says each thing once. A memory is distilled from a past message, and recall can find
 * both: the memory and the excerpt of the session it came from, word for word. The excerpt gives
 * way, since the memory is the shorter and the one kept current.
 */

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
