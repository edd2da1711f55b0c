/**
 * Consolidate, by identity: memories of one namespace with the same slot and value are one memory
 * said several times (merged into the oldest, whose wording stays: a merge never rewrites text);
 * the same slot with different values is a fact that changed (the newest stands, the older are
 * superseded, kept and linked) when the slot is one a choice lives in; secrets are masked again.
 */
import type { Memory } from '../api/memory.js';
import { redact } from '../redact/redact.js';
import { changeable, editedSince, numberChanged } from '../memory/index.js';
import type { Plan } from './plan.js';
import type { Shaped } from './similarity.js';

const newer = (a: Memory, b: Memory) => (a.lastSeenAt !== b.lastSeenAt ? a.lastSeenAt > b.lastSeenAt : a.createdAt > b.createdAt);
const older = (a: Memory, b: Memory) => (a.createdAt !== b.createdAt ? a.createdAt < b.createdAt : a.id < b.id);

export function planSlotGroups(items: Shaped[], groups: number[][], plan: Plan, taken: Set<string>): void {
  for (const group of groups) {
    const members = group.map((i) => items[i] as Shaped);
    const byValue = new Map<string, Memory[]>();
    for (const s of members) {
      const list = byValue.get(s.slot?.value ?? '') ?? [];
      list.push(s.memory);
      byValue.set(s.slot?.value ?? '', list);
    }
    // One memory per value: the oldest keeps its words and takes the others in.
    const kept: Memory[] = [];
    for (const same of byValue.values()) {
      // The person's edited words win over the oldest; an edited or pinned memory is never merged away.
      const edited = (m: Memory) => m.editedAt !== undefined;
      const into = [...same].sort((a, b) => (edited(a) !== edited(b) ? (edited(a) ? -1 : 1) : older(a, b) ? -1 : 1))[0] as Memory;
      kept.push(into);
      const merged = same.filter((m) => m.id !== into.id && !m.pinned && !edited(m));
      if (merged.length === 0) continue;
      for (const m of merged) taken.add(m.id);
      plan.merges.push({
        into: into.id,
        merged: merged.map((m) => m.id),
        text: into.content,
        reason: `the same statement (${same.length} times, one slot and value)`,
      });
    }
    const slot = members[0]?.slot;
    if (kept.length < 2 || slot === undefined) continue;
    const slotOfId = new Map(members.map((s) => [s.memory.id, s.slot]));
    const latest = kept.reduce((a, b) => (newer(b, a) ? b : a));
    for (const m of kept) {
      if (m.id === latest.id || m.pinned || editedSince(m, latest.lastSeenAt) || taken.has(m.id)) continue;
      // A choice that changed, or a number that did; otherwise two values of one slot may both hold,
      // and the report proposes the newer as a replacement for the person to confirm. A flip of
      // polarity is never applied here: it may come from a clause read the wrong way round.
      const [was, now] = [slotOfId.get(m.id), slotOfId.get(latest.id)];
      const flipped = was !== undefined && now !== undefined && was.value.slice(1) === now.value.slice(1);
      if (flipped || (!changeable(slot) && !(was !== undefined && now !== undefined && numberChanged(was, now)))) {
        plan.replacements.push({
          older: m.id,
          newer: latest.id,
          reason: flipped ? 'the same statement with the opposite polarity' : `another value for "${slot.subject} ${slot.attribute}"`,
        });
        continue;
      }
      taken.add(m.id);
      plan.supersede.push({ id: m.id, by: latest.id, at: latest.createdAt, reason: `changed: "${latest.content.slice(0, 80)}" is newer` });
    }
  }
}

export function planSecrets(memories: Memory[], plan: Plan): number {
  let found = 0;
  for (const m of memories) {
    const r = redact(m.content);
    // Personal data is masked too (a store from before it was); the count stays the secrets'.
    if (r.found.length + r.personal.length === 0) continue;
    found += r.found.length;
    plan.mask.push({ id: m.id, text: r.onlySecret ? null : r.text });
  }
  return found;
}
