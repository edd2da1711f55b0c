/**
 * Stored memories a model extraction may reinforce or supersede: the active ones with the same
 * wording or the same slot (slots.ts) as a statement, in the session's project and the user's own
 * namespace. Found by identity, as the merge finds them, never by word overlap.
 */
import type { Memory, MemoryType } from '../../api/memory.js';
import { isActive, type Namespace } from './model.js';
import { slotOf } from './slots.js';
import type { MemoryStore } from './store.js';

/** A stored memory as an extractor sees it. */
export interface KnownMemory {
  id: string;
  content: string;
  type: MemoryType;
  scope: 'user' | 'project' | 'team';
  /** The slot's value, when the memory has a slot: what "supersedes" replaces. */
  value?: string;
}

function known(m: Memory): KnownMemory {
  return { id: m.id, content: m.content, type: m.type, scope: m.scope, ...(m.slot !== undefined && { value: m.slot.value }) };
}

export function relatedMemories(store: MemoryStore, namespaces: readonly Namespace[]): (statements: readonly string[]) => KnownMemory[] {
  return (statements) => {
    const found = new Map<string, Memory>();
    for (const s of statements) {
      const slot = slotOf(s);
      for (const ns of namespaces) {
        for (const m of [...store.withText(ns, s), ...(slot === undefined ? [] : store.withSlot(ns, slot))]) if (isActive(m)) found.set(m.id, m);
      }
    }
    return [...found.values()].map(known);
  };
}
