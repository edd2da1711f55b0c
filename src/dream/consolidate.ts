/**
 * Consolidate: near-duplicates within a scope merge into one canonical memory; statements about
 * the same subject with different values resolve to the newer one; secrets are masked again.
 */
import type { Memory } from '../api/memory.js';
import { redact } from '../memory/extract/redact.js';
import { bestText, type Plan } from './plan.js';
import { clusters, isNearDuplicate, type Pair, type Shaped } from './similarity.js';

/** Types whose statements can contradict each other (a procedure's step 1 and step 2 do not). */
const CAN_CONFLICT = new Set<Memory['type']>(['fact', 'decision', 'instruction', 'preference', 'note']);

const newer = (a: Memory, b: Memory) => (a.lastSeenAt !== b.lastSeenAt ? a.lastSeenAt > b.lastSeenAt : a.createdAt > b.createdAt);

export function planMerges(items: Shaped[], pairs: Pair[], plan: Plan): void {
  const dupPairs = pairs.filter((p) => isNearDuplicate(items, p));
  for (const group of clusters(items.length, dupPairs)) {
    const members = group.map((i) => (items[i] as Shaped).memory);
    const sizes = new Map(group.map((i) => [(items[i] as Shaped).memory.id, (items[i] as Shaped).subject.size]));
    const best = bestText(members, (m) => sizes.get(m.id) ?? 0);
    plan.merges.push({
      into: best.id,
      merged: members.filter((m) => m.id !== best.id).map((m) => m.id),
      text: best.content,
      reason: `near-duplicates (${members.length} statements, same values)`,
    });
  }
}

export function planContradictions(items: Shaped[], pairs: Pair[], plan: Plan, taken: Set<string>): void {
  for (const p of pairs) {
    if (!p.conflict) continue;
    const A = (items[p.a] as Shaped).memory;
    const B = (items[p.b] as Shaped).memory;
    if (!CAN_CONFLICT.has(A.type) || !CAN_CONFLICT.has(B.type) || taken.has(A.id) || taken.has(B.id)) continue;
    const [old, now] = newer(A, B) ? [B, A] : [A, B];
    if (old.pinned) continue; // a pinned memory is the user's call
    taken.add(old.id);
    plan.supersede.push({ id: old.id, by: now.id, at: now.createdAt, reason: `contradicted: "${now.content.slice(0, 80)}" is newer` });
  }
}

export function planSecrets(memories: Memory[], plan: Plan): number {
  let found = 0;
  for (const m of memories) {
    const r = redact(m.content);
    if (r.found.length === 0) continue;
    found += r.found.length;
    plan.mask.push({ id: m.id, text: r.onlySecret ? null : r.text });
  }
  return found;
}
