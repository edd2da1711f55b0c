/** The person's actions on a memory, logged on the record itself (the rest of its history is derived: see history.ts). */
import type { Memory, MemoryEvent } from '../api/memory.js';

/** Enough for any history a person reads; a memory edited hundreds of times keeps the latest. */
export const EVENTS_KEPT = 50;

export function logEvent(m: Memory, event: MemoryEvent): void {
  const events = [...(m.events ?? []), event];
  m.events = events.slice(-EVENTS_KEPT);
}
