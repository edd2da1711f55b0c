/**
 * One dream: orient, gather, consolidate, prune, then apply (unless a dry run) and report.
 * Runs inside the daemon, the store's only writer, under a lock that outlives restarts.
 */
import type { DreamReport } from '../api/dream.js';
import type { Memory } from '../api/memory.js';
import { now } from '../clock.js';
import { AppError } from '../errors.js';
import type { Logger } from '../log.js';
import { isActive, type MemoryService } from '../memory/index.js';
import { acquirePidLock } from '../sys/pid-lock.js';
import { applyPlan } from './apply.js';
import { planSecrets, planSlotGroups } from './consolidate.js';
import { gather } from './gather.js';
import type { ModelReview } from './model-review.js';
import { emptyPlan, removedBy } from './plan.js';
import { planEvidence } from './evidence.js';
import { planPrune } from './prune.js';
import { planRestatements } from './restate.js';
import { planResolutions } from './resolve.js';
import { newDreamId, type DreamReports } from './reports.js';
import { shape, slotGroups, uncertainPairs } from './similarity.js';

export interface DreamDeps {
  memory: MemoryService;
  reports: DreamReports;
  lockFile: string;
  cap: number;
  log: Logger;
  review?: ModelReview | undefined;
  /** Called as each phase ends (the CLI prints a progress line per phase). */
  onPhase?: (phase: string, detail: string) => void;
}

/** `id` and `started`: given by a caller that announces the dream before it runs (see DreamService). */
export async function dream(deps: DreamDeps, opts: { dryRun: boolean; trigger: DreamReport['trigger']; id?: string; started?: Date }): Promise<DreamReport> {
  const started = opts.started ?? now();
  const id = opts.id ?? newDreamId(started);
  // The lock outlives daemon restarts: two dreams never overlap, and one that died never blocks the next.
  const lock = await acquirePidLock(deps.lockFile, {
    info: { dream: id, since: started.toISOString() },
    held: (h) =>
      new AppError(
        'conflict',
        h ? `a dream is already running (${String(h.dream)}, pid ${h.pid}, since ${String(h.since)})` : 'another dream took the lock first',
      ),
  });
  if (lock.stale) deps.log.warn({ stale: lock.stale }, 'took over a dream lock left by a holder that died');
  const t0 = Date.now();
  let mark = t0;
  const lap = () => {
    const ms = Date.now() - mark;
    mark = Date.now();
    return ms;
  };
  try {
    const { store, sessions, episodes } = deps.memory;
    // Orient
    const lastDream = deps.reports.lastDream();
    const recent = sessions.ingestedSince(lastDream ?? undefined);
    const namespaces = store.namespaces();
    const active: Memory[] = namespaces.flatMap((ns) => store.list(ns).filter(isActive));
    const orient = { ms: lap(), memories: active.length, namespaces: namespaces.length, sessions: recent.length, lastDream };
    deps.onPhase?.('orient', `${active.length} memories in ${namespaces.length} namespaces, ${recent.length} sessions since the last dream`);

    // Gather
    const plan = emptyPlan();
    gather(store, episodes.ofSessions(new Set(recent.map((s) => s.sessionId))), plan);
    const gathered = { ms: lap(), reinforced: plan.reinforce.size, proposed: plan.proposals.length };
    deps.onPhase?.('gather', `${gathered.reinforced} memories came up again, ${gathered.proposed} topics proposed`);

    // Consolidate
    const { items, computed } = shape(active);
    for (const [mid, slot] of computed) plan.slots.set(mid, slot);
    planSlotGroups(items, slotGroups(items), plan, removedBy(plan));
    // Alike in wording, different in slot: restatements when nearly all their words coincide; the
    // model (when there is one) judges the less alike; without one those stay apart.
    const pairs = uncertainPairs(items);
    planRestatements(items, pairs, plan, removedBy(plan));
    const usage = deps.review ? await deps.review.review(items, pairs, plan, removedBy(plan)) : undefined;
    const gone = removedBy(plan);
    const secretsMasked = planSecrets(
      active.filter((m) => !gone.has(m.id)),
      plan,
    );
    const merged = plan.merges.reduce((n, m) => n + m.merged.length, 0);
    const consolidated = { ms: lap(), merged, superseded: plan.supersede.length, secretsMasked, modelBatches: usage?.batches ?? 0 };
    deps.onPhase?.('consolidate', `${merged} merged, ${plan.supersede.length} superseded, ${secretsMasked} secrets masked`);

    // Verify: what memories rest on in their repositories, as the repositories are now (timed on its own).
    const budgetLeft = usage === undefined ? 0 : usage.tokens.budget - usage.tokens.input;
    const checked = await planEvidence(active, plan, removedBy(plan), { at: started.toISOString(), confirm: deps.review?.confirm, budget: budgetLeft });
    const verify = checked.phase;
    deps.onPhase?.('verify', `${verify.checked} checked against their repositories, ${verify.reverify} to re-verify, ${verify.archived} archived`);
    lap();

    // Finished problems and dropped plans become history.
    planResolutions(active, episodes, plan, removedBy(plan));

    // Prune, in each project's own time
    planPrune(active, plan, { nowMs: started.getTime(), cap: deps.cap, removed: removedBy(plan), activity: deps.memory.activity() });
    const pruned = { ms: lap(), archived: plan.archive.length };
    deps.onPhase?.('prune', `${plan.archive.length} archived`);

    const report: DreamReport = {
      id,
      trigger: opts.trigger,
      dryRun: opts.dryRun,
      startedAt: started.toISOString(),
      durationMs: Date.now() - t0,
      phases: { orient, gather: gathered, consolidate: consolidated, prune: pruned, verify },
      merges: plan.merges,
      supersessions: plan.supersede,
      archives: plan.archive,
      reinforcements: [...plan.reinforce].map(([mid, r]) => ({ id: mid, sessions: r.sessions })),
      proposals: plan.proposals,
      replacements: plan.replacements,
      masked: plan.mask.map((k) => ({ id: k.id, dropped: k.text === null })),
      reverify: plan.evidence.reverify,
      ...(usage && { tokens: { ...usage.tokens, input: usage.tokens.input + checked.tokens.input, output: usage.tokens.output + checked.tokens.output } }),
    };
    // The report first, then the memories: a dream refused on the way (a full disk) leaves neither a
    // report of changes that were not made, nor changes without the report the next dream starts from.
    await deps.reports.save(report);
    if (!opts.dryRun) {
      applyPlan(store, plan, started.toISOString());
      try {
        await store.save();
      } catch (err) {
        await deps.reports.remove(report.id);
        throw err;
      }
      // The agent's record of each project's work: its last sessions kept, finished work archived.
      const state = await deps.memory.compactStates();
      deps.onPhase?.('state', `${state.archived} finished items archived, ${state.merged} commits merged`);
    }
    deps.log.info(
      { dream: id, dryRun: opts.dryRun, merged, superseded: plan.supersede.length, archived: plan.archive.length, ms: report.durationMs },
      'dream done',
    );
    return report;
  } finally {
    lock.release();
  }
}
