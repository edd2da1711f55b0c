/**
 * Prune, counted in each project's own time (memory/activity.ts):
 * - a memory that decays and kept less than a tenth of its relevance is archived;
 * - a memory said in one session only, that 20 later sessions of its project went by without,
 *   and that ranks in the lower half of its namespace, is archived: a candidate nobody came back to;
 * - beyond the per-namespace cap (150 by default), the lowest ranked are archived.
 * The rank is recall's (relevance, raised by the sessions that said it). Pinned and edited
 * memories are never pruned; nothing is deleted.
 */
import type { Memory } from '../api/memory.js';
import type { Activity } from '../memory/activity.js';
import { baseScore, decay, namespaceKey, namespaceOf, PRUNE_FACTOR, sessionsOf } from '../memory/model.js';
import type { Plan } from './plan.js';

/** Later sessions of a project without a memory after which a one-session memory of the lower half leaves. */
export const NEVER_AGAIN_SESSIONS = 20;

export function planPrune(active: Memory[], plan: Plan, opts: { nowMs: number; cap: number; removed: Set<string>; activity?: Activity }): void {
  const perNamespace = new Map<string, { m: Memory; r: number }[]>();
  for (const m of active) {
    if (opts.removed.has(m.id) || m.pinned || m.editedAt !== undefined) continue;
    const kept = decay(m, opts.nowMs, opts.activity);
    if (kept < PRUNE_FACTOR) {
      plan.archive.push({ id: m.id, reason: `decayed: ${kept.toFixed(3)} of its relevance left (< ${PRUNE_FACTOR})` });
      continue;
    }
    const key = namespaceKey(namespaceOf(m));
    const list = perNamespace.get(key) ?? [];
    list.push({ m, r: baseScore(m, m.importance * kept, opts.activity) });
    perNamespace.set(key, list);
  }
  for (const [key, list] of perNamespace) {
    list.sort((a, b) => b.r - a.r);
    const median = list[Math.floor(list.length / 2)]?.r ?? 0;
    const stay: typeof list = [];
    for (const e of list) {
      const after = opts.activity?.sessionsAfter(namespaceOf(e.m), e.m.lastSeenAt) ?? 0;
      if (sessionsOf(e.m) === 1 && after >= NEVER_AGAIN_SESSIONS && e.r < median) {
        plan.archive.push({ id: e.m.id, reason: `never said again in the ${after} sessions since (rank ${e.r.toFixed(3)}, below the middle of ${key})` });
      } else stay.push(e);
    }
    for (const { m, r } of stay.slice(opts.cap)) {
      plan.archive.push({ id: m.id, reason: `over the cap of ${opts.cap} active memories in ${key} (rank ${r.toFixed(3)})` });
    }
  }
}
