/**
 * The dream's check of memories against their repositories (memory/evidence/): evidence recorded
 * for memories that have none yet, confirmed for those that came up again in a session since the
 * last dream, checked for the rest. What is gone is archived with the reason; what changed is
 * marked to re-verify. Planned like every other phase: a dry run reports it and changes nothing.
 */
import type { Memory } from '../api/memory.js';
import { decideAll } from '../memory/evidence/tie.js';
import type { Plan } from './plan.js';

export async function planEvidence(
  active: readonly Memory[],
  plan: Plan,
  removed: ReadonlySet<string>,
  at: string,
): Promise<{ ms: number; recorded: number; checked: number; reverify: number; archived: number }> {
  const t0 = performance.now();
  const left = active.filter((m) => !removed.has(m.id));
  const d = await decideAll(left, { at, confirmed: new Set(plan.reinforce.keys()) });
  plan.evidence = d;
  for (const a of d.archive) plan.archive.push({ id: a.id, reason: a.reason });
  const checked = left.filter((m) => m.scope === 'project' && (m.evidence?.length ?? 0) > 0 && !d.evidence.has(m.id)).length;
  return {
    ms: Math.round(performance.now() - t0),
    recorded: [...d.evidence.values()].filter((e) => e.length > 0).length,
    checked,
    reverify: d.reverify.length,
    archived: d.archive.length,
  };
}
