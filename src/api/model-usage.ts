/** What model calls cost, per day (`nightshift usage`), and what `nightshift doctor` finds. */
import { z } from 'zod';

export const UsagePurpose = z.enum(['extract', 'review']);

/** One backend's calls for one purpose on one day. */
export const UsageRow = z.object({
  backend: z.string(),
  purpose: UsagePurpose,
  calls: z.number(),
  inputTokens: z.number(),
  outputTokens: z.number(),
  /** What the backend said the calls cost, when it says (the Claude CLI does). */
  costUsd: z.number().optional(),
  /** The heuristics answered instead, by reason (`daily_budget`, `rate_limited`, …). */
  fallbacks: z.record(z.string(), z.number()),
});
export type UsageRow = z.infer<typeof UsageRow>;

export const UsageDay = z.object({
  /** Local day, YYYY-MM-DD. */
  date: z.string(),
  rows: z.array(UsageRow),
});
export type UsageDay = z.infer<typeof UsageDay>;

export const UsageQuery = z.object({ days: z.coerce.number().int().min(1).max(366).default(7) }).strict();

export const UsageResponse = z.object({
  /** Newest first; days without a call are left out. */
  days: z.array(UsageDay),
  budget: z.object({ dailyTokens: z.number(), spentToday: z.number() }),
  /** Tokens the hooks injected per session in those days (the injection ledger), newest first. */
  injected: z
    .array(z.object({ sessionId: z.string(), project: z.string().nullable(), injections: z.number(), tokens: z.number(), lastAt: z.string() }))
    .optional(),
});
export type UsageResponse = z.infer<typeof UsageResponse>;

export const DoctorCheck = z.object({
  name: z.string(),
  ok: z.boolean(),
  detail: z.string(),
  /** What is configured needs it: a failed one is a problem (doctor exits 1), not information. */
  blocking: z.boolean().optional(),
});
export type DoctorCheck = z.infer<typeof DoctorCheck>;

/** Who answers a kind of model question: what the config says, what runs, and why. */
export const DoctorChoice = z.object({ configured: z.string(), active: z.string(), why: z.string() });

export const DoctorResponse = z.object({
  extractor: DoctorChoice,
  reviewer: DoctorChoice,
  /** Whether each variable is set in the daemon's environment (never its value). */
  env: z.record(z.string(), z.boolean()),
  budget: z.object({ dailyTokens: z.number(), spentToday: z.number() }),
  checks: z.array(DoctorCheck),
});
export type DoctorResponse = z.infer<typeof DoctorResponse>;
