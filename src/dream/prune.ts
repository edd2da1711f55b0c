/**
 * Prune: memories that kept less than a tenth of their relevance are archived with the reason;
 * beyond the per-namespace cap, the least relevant are archived too. Stable memories do not decay;
 * pinned ones are never pruned.
 */
import type { Memory } from '../api/memory.js';
import { decay, namespaceKey, namespaceOf, PRUNE_FACTOR, relevance } from '../memory/model.js';
import type { Plan } from './plan.js';

export function planPrune(active: Memory[], plan: Plan, opts: { nowMs: number; cap: number; removed: Set<string> }): void {
  const perNamespace = new Map<string, { m: Memory; r: number }[]>();
  for (const m of active) {
    if (opts.removed.has(m.id) || m.pinned) continue;
    const kept = decay(m, opts.nowMs);
    if (kept < PRUNE_FACTOR) {
      plan.archive.push({ id: m.id, reason: `decayed: ${kept.toFixed(3)} of its relevance left (< ${PRUNE_FACTOR})` });
      continue;
    }
    const r = relevance(m, opts.nowMs);
    const key = namespaceKey(namespaceOf(m));
    const list = perNamespace.get(key) ?? [];
    list.push({ m, r });
    perNamespace.set(key, list);
  }
  for (const [key, list] of perNamespace) {
    if (list.length <= opts.cap) continue;
    list.sort((a, b) => a.r - b.r);
    for (const { m, r } of list.slice(0, list.length - opts.cap)) {
      plan.archive.push({ id: m.id, reason: `over the cap of ${opts.cap} active memories in ${key} (relevance ${r.toFixed(3)})` });
    }
  }
}
