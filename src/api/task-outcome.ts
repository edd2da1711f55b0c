import { z } from 'zod';

/**
 * How a finished task ended, each way with its own fields (pueue's TaskResult beside its TaskStatus).
 * A new outcome is one variant here, its row in task-status.ts's OUTCOMES table (the compiler asks
 * for it) and the code that ends tasks that way.
 */
export const Outcome = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('exited'), exitCode: z.number(), reason: z.string().optional() }),
  /** `exitCode`: as a shell reports it, 128+signal. */
  z.object({ kind: z.literal('killed'), signal: z.string(), exitCode: z.number(), reason: z.string().optional() }),
  /** `signal`: what ended it at its deadline (SIGTERM, or SIGKILL when that was not enough). */
  z.object({ kind: z.literal('timed_out'), signal: z.string().optional(), reason: z.string() }),
  /** Never ran: a dependency did not succeed (`reason` says which and how). */
  z.object({ kind: z.literal('skipped'), reason: z.string() }),
  z.object({ kind: z.literal('failed_to_start'), error: z.string() }),
  z.object({ kind: z.literal('lost'), reason: z.string() }),
]);
export type Outcome = z.infer<typeof Outcome>;
