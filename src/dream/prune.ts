/**
 * Prune, counted in each project's own time (memory/store/activity.ts):
 * - a memory that decays and kept less than a tenth of its relevance is archived;
 * - beyond the per-namespace cap (150 by default), the lowest ranked are archived. The rank is
 *   recall's: relevance, raised by the sessions that said it, lowered by the sessions since it was
 *   last said; so what nobody came back to leaves first, and a standing rule or the current stack
 *   stays however long ago it was said, as long as the project has room.
 * Pinned and edited memories are never pruned; nothing is deleted.
 */
import type { Memory } from '../api/memory.js';
import { type Activity, clocksOf, decay, namespaceKey, namespaceOf, PRUNE_FACTOR, rankOf } from '../memory/index.js';
import type { Plan } from './plan.js';

export function planPrune(active: Memory[], plan: Plan, opts: { nowMs: number; cap: number; removed: Set<string>; activity?: Activity }): void {
  const perNamespace = new Map<string, { m: Memory; r: number }[]>();
  const clockOf = clocksOf(opts.activity);
  for (const m of active) {
    if (opts.removed.has(m.id) || m.pinned || m.editedAt !== undefined) continue;
    const rank = rankOf(m, opts.nowMs, clockOf(m));
    if (rank < 0) {
      const kept = decay(m, opts.nowMs, opts.activity);
      plan.archive.push({ id: m.id, reason: `decayed: ${kept.toFixed(3)} of its relevance left (< ${PRUNE_FACTOR})` });
      continue;
    }
    const key = namespaceKey(namespaceOf(m));
    const list = perNamespace.get(key) ?? [];
    list.push({ m, r: rank });
    perNamespace.set(key, list);
  }
  for (const [key, list] of perNamespace) {
    list.sort((a, b) => b.r - a.r);
    for (const { m, r } of list.slice(opts.cap)) {
      plan.archive.push({ id: m.id, reason: `over the cap of ${opts.cap} active memories in ${key} (rank ${r.toFixed(3)})` });
    }
  }
}
