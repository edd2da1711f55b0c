/**
 * Active memories by identity, per namespace: by slot (subject + attribute) and by exact wording.
 * Merging looks up a statement here in O(1); nothing is ever compared by word overlap.
 */
import type { Memory } from '../../api/memory.js';
import { slotKey } from './slots.js';
import { normalize } from '../nlp/text.js';

export class IdentityIndex {
  private readonly keys = new Map<string, Set<string>>();
  private readonly keysOf = new Map<string, string[]>();

  set(m: Memory, ns: string): void {
    this.delete(m.id);
    const keys = [`t\u0000${ns}\u0000${normalize(m.content)}`];
    if (m.slot !== undefined) keys.push(`s\u0000${ns}\u0000${slotKey(m.slot)}`);
    this.keysOf.set(m.id, keys);
    for (const k of keys) {
      const ids = this.keys.get(k);
      if (ids) ids.add(m.id);
      else this.keys.set(k, new Set([m.id]));
    }
  }

  delete(id: string): void {
    for (const k of this.keysOf.get(id) ?? []) {
      const ids = this.keys.get(k);
      ids?.delete(id);
      if (ids?.size === 0) this.keys.delete(k);
    }
    this.keysOf.delete(id);
  }

  withText(ns: string, content: string): string[] {
    return [...(this.keys.get(`t\u0000${ns}\u0000${normalize(content)}`) ?? [])];
  }

  withSlot(ns: string, key: string): string[] {
    return [...(this.keys.get(`s\u0000${ns}\u0000${key}`) ?? [])];
  }
}
