import { z } from 'zod';
import { RunRequest, ScheduleId, TaskId } from './tasks.js';

export { ScheduleId, ScheduleLink } from './tasks.js';
/** An id or a name: what `schedule show|pause|resume|remove` accept. */
export const ScheduleRefParam = z
  .string()
  .min(1)
  .max(200)
  .regex(/^[^\u0000-\u001f\u007f]+$/, 'a schedule id or name');

export const OVERLAP = ['skip', 'allow', 'queue'] as const;

export const Firing = z.object({
  /** The time the cron expression named (a catch-up firing: the missed time). */
  at: z.string(),
  /** started: a task ran; skipped: the previous one still ran; queued: waits for it; failed: could not start. */
  outcome: z.enum(['started', 'skipped', 'queued', 'failed']),
  taskId: TaskId.optional(),
  catchUp: z.boolean().optional(),
  error: z.string().optional(),
});
export type Firing = z.infer<typeof Firing>;

const Name = RunRequest.shape.name;

export const AddScheduleRequest = z
  .object({
    cron: z.string().min(1).max(200),
    name: Name.refine((n) => !/^s[0-9]+$/.test(n ?? ''), 'a schedule name cannot look like a schedule id (s3)'),
    tz: z.string().min(1).max(100).optional(),
    overlap: z.enum(OVERLAP).default('skip'),
    catchUp: z.boolean().default(false),
    command: RunRequest.shape.command,
    cwd: RunRequest.shape.cwd,
    /** Only these are kept (0600, in the state dir); the task gets the daemon's environment plus them. */
    env: RunRequest.shape.env,
  })
  .strict();
export type AddScheduleRequest = z.infer<typeof AddScheduleRequest>;

/** A schedule as it is kept in schedules.json. */
export const Schedule = z.object({
  id: ScheduleId,
  name: z.string().nullable(),
  cron: z.string(),
  tz: z.string().nullable(),
  overlap: z.enum(OVERLAP),
  catchUp: z.boolean(),
  command: z.array(z.string()),
  cwd: z.string(),
  env: z.record(z.string(), z.string()),
  paused: z.boolean(),
  createdAt: z.string(),
  lastFiredAt: z.string().nullable(),
  /** The latest firings, newest last (at most 20). */
  firings: z.array(Firing),
});
export type Schedule = z.infer<typeof Schedule>;

/** A schedule as the API shows it: its environment's names only, and when it fires next. */
export const ScheduleView = Schedule.omit({ env: true }).extend({
  envKeys: z.array(z.string()),
  next: z.array(z.string()),
  /** `queue`: a firing waits for the running task to end. */
  waiting: z.boolean(),
});
export type ScheduleView = z.infer<typeof ScheduleView>;

export const ScheduleResponse = z.object({ schedule: ScheduleView });
export const ScheduleListResponse = z.object({ schedules: z.array(ScheduleView) });
