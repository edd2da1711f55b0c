/** What a stored memory says, for the budget filler and for telling an excerpt that repeats it (echo.ts). */
import type { Memory } from '../../api/memory.js';
import { dedupeKey } from '../nlp/tidy.js';
import { slotKey } from '../store/slots.js';
import { messageKey, type Said } from './echo.js';

const wordingCache = new WeakMap<Memory, { content: string; key: string }>();

/** The normalised wording of a memory, worked out once per text. */
export function wordingOf(m: Memory): string {
  const seen = wordingCache.get(m);
  if (seen !== undefined && seen.content === m.content) return seen.key;
  const key = dedupeKey(m.content);
  wordingCache.set(m, { content: m.content, key });
  return key;
}

/** Every message it was taken from, not the few a recalled line shows. */
export function sourcesOf(m: Memory): string[] {
  return m.sources.flatMap((s) => s.messageIds.map((id) => messageKey(s.sessionId, id)));
}

/** Its identity: subject, attribute and value. */
export function slotOf(m: Memory): string | undefined {
  return m.slot === undefined ? undefined : `${slotKey(m.slot)}\u0000${m.slot.value}`;
}

export function saidBy(m: Memory): Said {
  return { wording: wordingOf(m), sources: sourcesOf(m), slot: slotOf(m) };
}
