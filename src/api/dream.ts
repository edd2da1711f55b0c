import { z } from 'zod';

export const DreamId = z.string().regex(/^d[0-9]{8}T[0-9]{9}-[0-9a-f]{4}$/, 'dream ids look like d20261122T030000000-1a2b');

const Phase = z.object({ ms: z.number() });

export const DreamReport = z.object({
  id: DreamId,
  trigger: z.enum(['manual', 'schedule']),
  dryRun: z.boolean(),
  startedAt: z.string(),
  durationMs: z.number(),
  /** Why it did not complete (an error), when it did not. */
  error: z.string().optional(),
  phases: z.object({
    orient: Phase.extend({ memories: z.number(), namespaces: z.number(), sessions: z.number(), lastDream: z.string().nullable() }),
    gather: Phase.extend({ reinforced: z.number(), proposed: z.number() }),
    consolidate: Phase.extend({ merged: z.number(), superseded: z.number(), secretsMasked: z.number(), modelBatches: z.number() }),
    prune: Phase.extend({ archived: z.number() }),
    /** Memories checked against their repositories (memory/evidence/). */
    verify: Phase.extend({
      recorded: z.number(),
      checked: z.number(),
      reverify: z.number(),
      archived: z.number(),
      confirmed: z.number().optional(),
    }).optional(),
  }),
  merges: z.array(z.object({ into: z.string(), merged: z.array(z.string()), text: z.string(), reason: z.string() })),
  supersessions: z.array(z.object({ id: z.string(), by: z.string(), at: z.string(), reason: z.string() })),
  archives: z.array(z.object({ id: z.string(), reason: z.string() })),
  reinforcements: z.array(z.object({ id: z.string(), sessions: z.number() })),
  proposals: z.array(z.object({ topic: z.string(), sessions: z.number() })),
  /** Two values of one slot the dream did not resolve on its own: the newer may replace the older (`memories forget` the older to agree). */
  replacements: z.array(z.object({ older: z.string(), newer: z.string(), reason: z.string() })).optional(),
  masked: z.array(z.object({ id: z.string(), dropped: z.boolean() })),
  /** What a memory rests on in its repository changed: marked to re-verify (ranked lower until said again). */
  reverify: z.array(z.object({ id: z.string(), reason: z.string() })).optional(),
  tokens: z.object({ input: z.number(), output: z.number(), budget: z.number() }).optional(),
});
export type DreamReport = z.infer<typeof DreamReport>;

export const DreamRequest = z.object({ dryRun: z.boolean().default(false) }).strict();
/** A memory a report names, as it is now (`expand=1`); `exists: false` when it is no longer stored. */
export const ReportMemory = z.union([
  z.object({
    exists: z.literal(true),
    content: z.string(),
    type: z.string(),
    state: z.enum(['active', 'archived', 'superseded']),
    supersededBy: z.string().optional(),
    archiveReason: z.string().optional(),
  }),
  z.object({ exists: z.literal(false) }),
]);
export type ReportMemory = z.infer<typeof ReportMemory>;
/** `memories` (with `expand=1`): every memory id the report names, with its text now, for a readable diff. */
export const DreamResponse = z.object({ report: DreamReport, memories: z.record(z.string(), ReportMemory).optional() });
export const DreamShowQuery = z.object({ expand: z.enum(['0', '1']).optional() }).strict();

export const DreamSummary = DreamReport.pick({ id: true, trigger: true, dryRun: true, startedAt: true, durationMs: true, error: true }).extend({
  merged: z.number(),
  superseded: z.number(),
  archived: z.number(),
});
/** A dream that has not ended yet: the phases it has been through so far. */
export const RunningDream = DreamReport.pick({ id: true, trigger: true, dryRun: true, startedAt: true }).extend({
  phases: z.array(z.object({ phase: z.string(), detail: z.string() })),
});
export type RunningDream = z.infer<typeof RunningDream>;

/** Past dreams, newest first, and the one running now (it has no report yet). */
export const DreamListResponse = z.object({ dreams: z.array(DreamSummary), running: RunningDream.nullable().default(null) });

export const DreamSchedule = z.object({
  cron: z.string(),
  next: z.string().nullable(),
  lastDream: z.string().nullable(),
  sessionsSince: z.number(),
  gates: z.object({ hoursSinceLast: z.boolean(), sessionsSince: z.boolean(), noIngest: z.boolean(), notRunning: z.boolean() }),
  wouldRun: z.boolean(),
});
export type DreamSchedule = z.infer<typeof DreamSchedule>;

/** One line of `POST /v1/dreams/progress`: a phase that ended, then the report (or what went wrong). */
export const DreamProgressLine = z.union([
  z.object({ phase: z.string(), detail: z.string() }),
  z.object({ report: DreamReport }),
  z.object({ error: z.object({ code: z.string(), message: z.string() }) }),
]);
export type DreamProgressLine = z.infer<typeof DreamProgressLine>;
