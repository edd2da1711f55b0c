/**
 * The dream's check of memories against their repositories (memory/evidence/): evidence recorded
 * for memories that have none yet, confirmed for those that came up again in a session since the
 * last dream, checked for the rest. What is gone is archived with the reason; what changed is
 * marked to re-verify, unless the model (when there is one) confirms it still holds. Planned like
 * every other phase: a dry run reports it and changes nothing.
 */
import type { Memory } from '../api/memory.js';
import { decideAll } from '../memory/index.js';
import type { Confirm } from './model-confirm.js';
import type { Plan } from './plan.js';

export interface VerifyOptions {
  at: string;
  /** The model's confirmation, and the tokens left of the dream's budget for it. */
  confirm?: Confirm | undefined;
  budget?: number;
}

export async function planEvidence(active: readonly Memory[], plan: Plan, removed: ReadonlySet<string>, opts: VerifyOptions) {
  const t0 = performance.now();
  const left = active.filter((m) => !removed.has(m.id));
  const d = await decideAll(left, { at: opts.at, confirmed: new Set(plan.reinforce.keys()) });
  const tokens = { input: 0, output: 0 };
  let confirmed = 0;
  if (opts.confirm !== undefined) {
    const byId = new Map(left.map((m) => [m.id, m]));
    const settled = new Set([...d.archive.map((a) => a.id), ...d.cleared, ...d.evidence.keys()]);
    const marked = [
      ...d.reverify.flatMap((r) => (byId.has(r.id) ? [{ memory: byId.get(r.id) as Memory, reason: r.reason }] : [])),
      ...left.flatMap((m) => (m.reverify !== undefined && !settled.has(m.id) ? [{ memory: m, reason: m.reverify.reason }] : [])),
    ];
    if (marked.length > 0) {
      const answer = await opts.confirm(marked, opts.budget ?? 0);
      Object.assign(tokens, answer.tokens);
      const held = new Set(answer.held);
      // Confirmed: recorded anew as the repository is now, as if the person had said it again.
      const again = await decideAll(
        marked.filter((x) => held.has(x.memory.id)).map((x) => x.memory),
        { at: opts.at, confirmed: held },
      );
      for (const [id, e] of again.evidence) d.evidence.set(id, e);
      d.cleared.push(...again.cleared);
      d.reverify = d.reverify.filter((r) => !held.has(r.id));
      confirmed = held.size;
    }
  }
  plan.evidence = d;
  for (const a of d.archive) plan.archive.push({ id: a.id, reason: a.reason });
  const checked = left.filter((m) => m.scope === 'project' && (m.evidence?.length ?? 0) > 0 && !plan.reinforce.has(m.id)).length;
  return {
    phase: {
      ms: Math.round(performance.now() - t0),
      recorded: [...d.evidence.values()].filter((e) => e.length > 0).length,
      checked,
      reverify: d.reverify.length,
      archived: d.archive.length,
      confirmed,
    },
    tokens,
  };
}
