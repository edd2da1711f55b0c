import { z } from 'zod';
import { GroupName } from './groups.js';
import { MAX_OFFSET, MAX_READ_BYTES, MAX_RETRY, MAX_RETRY_DELAY_SECONDS, MAX_STALL_SECONDS, MAX_TIMEOUT_SECONDS, MIN_STALL_SECONDS } from './limits.js';
import { durationText } from './format.js';
import { STATUS_FILTERS } from './task-status.js';
import { TaskId, TaskJson, type Task } from './task.js';

export { Attention, ScheduleId, ScheduleLink, Task, TaskId, TaskJson, WorkflowFields } from './task.js';
export type { Outcome } from './task-outcome.js';
export type { OutcomeKind, TaskState, TaskStatus } from './task-status.js';
// Zod-free, for the hot commands (the CLI's fast path loads no zod).
export { endedAs, FINISHED, isFinished, OUTCOME_KINDS, shellExitCode, statusOf, TASK_STATUSES } from './task-status.js';

const NoControlChars = /^[^\u0000-\u001f\u007f]*$/;
/** The OS cannot pass a NUL inside an argument, a path or an environment value. */
const NoNul = /^[^\u0000]*$/;

/** Percent-decodes until nothing changes (a few rounds at most), so %252e%252e%252f is seen as ../ too. */
function decoded(s: string): string {
  let cur = s;
  for (let i = 0; i < 4; i++) {
    let next: string;
    try {
      next = decodeURIComponent(cur);
    } catch {
      return cur;
    }
    if (next === cur) return cur;
    cur = next;
  }
  return cur;
}

// Values are never quoted in errors: they may be secrets.
const RunEnv = z.record(
  z
    .string()
    .min(1)
    .max(1024)
    .regex(/^[^=\u0000]+$/, 'bad variable name'),
  z
    .string()
    .max(128 * 1024)
    .regex(NoNul, 'environment values cannot contain NUL bytes'),
);

/** A name is a label: a `..` path segment in it (raw or percent-encoded) is refused as path traversal. */
const notTraversal = (s: string) => !/(^|[/\\])\.\.([/\\]|$)/.test(decoded(s));

const Labels = z
  .record(
    z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_./-]{0,62}$/, 'label keys are letters, digits, "_", ".", "/" and "-" (at most 63)'),
    z.string().max(256).regex(NoControlChars, 'label values cannot have control characters'),
  )
  .refine((l) => Object.keys(l).length <= 32, 'at most 32 labels');

/** `restart`: the environment the new run gets (a task's own is not kept once it has started). */
export const RestartRequest = z.object({ env: RunEnv.optional() }).strict();

export const RunRequest = z
  .object({
    command: z
      .array(
        z
          .string()
          .max(64 * 1024)
          .regex(NoNul, 'command arguments cannot contain NUL bytes'),
      )
      .min(1, 'command is empty')
      .max(4096),
    name: z
      .string()
      .min(1)
      .max(200)
      .regex(NoControlChars, 'name has control characters')
      .refine(notTraversal, 'name is a label and cannot contain a ".." path segment')
      .optional(),
    cwd: z.string().min(1).max(4096).startsWith('/', 'cwd must be an absolute path').regex(NoNul, 'cwd cannot contain NUL bytes'),
    env: RunEnv.optional(),
    stallAfterSeconds: z
      .number()
      .min(MIN_STALL_SECONDS, `must be from ${MIN_STALL_SECONDS} to ${MAX_STALL_SECONDS} seconds (${durationText(MAX_STALL_SECONDS * 1000)})`)
      .max(MAX_STALL_SECONDS, `must be from ${MIN_STALL_SECONDS} to ${MAX_STALL_SECONDS} seconds (${durationText(MAX_STALL_SECONDS * 1000)})`)
      .optional(),
    stdin: z.boolean().default(true),
    after: z.array(TaskId).min(1).max(256).optional(),
    /** With `after`: start once they ended in any state, not only when all succeeded. */
    afterAny: z.boolean().optional(),
    group: GroupName.optional(),
    labels: Labels.optional(),
    /** Run it again up to this many times while it exits non-zero (or times out). */
    retry: z.number().int().min(0).max(MAX_RETRY, `must be a whole number from 0 to ${MAX_RETRY}`).optional(),
    retryDelaySeconds: z
      .number()
      .min(0)
      .max(MAX_RETRY_DELAY_SECONDS, `must be at most ${MAX_RETRY_DELAY_SECONDS} seconds (${durationText(MAX_RETRY_DELAY_SECONDS * 1000)})`)
      .optional(),
    timeoutSeconds: z
      .number()
      .positive(`must be above 0 and at most ${MAX_TIMEOUT_SECONDS} seconds (${durationText(MAX_TIMEOUT_SECONDS * 1000)})`)
      .max(MAX_TIMEOUT_SECONDS, `must be above 0 and at most ${MAX_TIMEOUT_SECONDS} seconds (${durationText(MAX_TIMEOUT_SECONDS * 1000)})`)
      .optional(),
  })
  .strict();
export type RunRequest = z.infer<typeof RunRequest>;

export const ListQuery = z
  .object({
    all: z.enum(['0', '1']).default('0'),
    group: GroupName.optional(),
    /** A flat status (`exited`, `lost`, …) or a state (`queued`, `running`, `finished`). */
    status: z.enum(STATUS_FILTERS).optional(),
    /** JSON object: only tasks carrying every one of these labels. */
    labels: z
      .string()
      .max(16 * 1024)
      .transform((s, ctx) => {
        try {
          return JSON.parse(s) as unknown;
        } catch {
          ctx.addIssue({ code: 'custom', message: 'labels must be a JSON object of strings' });
          return z.NEVER;
        }
      })
      .pipe(z.record(z.string(), z.string()))
      .optional(),
    /** 1: only running tasks that need attention (a prompt, or silence). */
    attention: z.enum(['0', '1']).optional(),
    /** desc: newest first (default: oldest first). */
    order: z.enum(['asc', 'desc']).optional(),
    /** A page: skip `offset` matching tasks, return at most `limit` (absent: all of them). */
    offset: z
      .string()
      .regex(/^[0-9]{1,9}$/, 'offset must be a non-negative integer')
      .transform(Number)
      .optional(),
    limit: z
      .string()
      .regex(/^[0-9]{1,5}$/, 'limit must be a positive integer')
      .transform(Number)
      .pipe(z.number().min(1).max(10_000))
      .optional(),
  })
  .strict();

const NonNegInt = (what: string) =>
  z
    .string()
    .regex(/^[0-9]{1,16}$/, `${what} must be a whole number from 0 to ${MAX_OFFSET}`)
    .transform(Number)
    .refine((n) => n <= MAX_OFFSET, `${what} must be a whole number from 0 to ${MAX_OFFSET}`);

export { DEFAULT_READ_BYTES, MAX_READ_BYTES } from './limits.js';

export const OutputQuery = z
  .object({
    offset: NonNegInt('offset').optional(),
    limit: NonNegInt('limit').pipe(z.number().min(1).max(MAX_READ_BYTES)).optional(),
    lines: NonNegInt('lines').pipe(z.number().max(100_000)).optional(),
    /** 1: whole UTF-8 characters (for text): start on a character, at least one, never half of one at the end. */
    text: z.enum(['0', '1']).optional(),
  })
  .strict();
export type OutputQuery = z.infer<typeof OutputQuery>;

/** Metadata of an output read; the bytes travel as the response body. */
export const OutputMeta = z.object({
  offset: z.number(),
  nextOffset: z.number(),
  size: z.number(),
  status: z.string(),
  done: z.boolean(),
});
export type OutputMeta = z.infer<typeof OutputMeta>;

export const FollowQuery = z.object({ offset: NonNegInt('offset').optional() }).strict();

export const InputRequest = z
  .object({
    text: z
      .string()
      .max(1024 * 1024)
      .default(''),
    eof: z.boolean().default(false),
  })
  .strict();

export const SIGNALS = [
  'SIGTERM',
  'SIGKILL',
  'SIGINT',
  'SIGHUP',
  'SIGQUIT',
  'SIGUSR1',
  'SIGUSR2',
  'SIGSTOP',
  'SIGCONT',
  'SIGTSTP',
  'SIGALRM',
  'SIGPIPE',
  'SIGABRT',
  'SIGWINCH',
] as const;
export type SignalName = (typeof SIGNALS)[number];

/** Accepts TERM, sigterm, SIGTERM. */
export const SignalSchema = z
  .string()
  .transform((s) => (s.toUpperCase().startsWith('SIG') ? s.toUpperCase() : `SIG${s.toUpperCase()}`))
  .pipe(z.enum(SIGNALS, { message: `unknown signal; use one of ${SIGNALS.join(', ')}` }));

export const KillRequest = z.object({ signal: SignalSchema.default('SIGTERM') }).strict();

export const WaitQuery = z
  .object({
    timeout: z
      .string()
      .regex(/^[0-9]+(\.[0-9]+)?$/, 'timeout must be a non-negative number of seconds')
      .transform(Number)
      .optional(),
  })
  .strict();

export const WaitResponse = z.object({ task: TaskJson, timedOut: z.boolean() });
export const TaskResponse = z.object({ task: TaskJson });
/** `total`: how many tasks match the filters (more than `tasks` holds when a page was asked for). */
export const TaskListResponse = z.object({ tasks: z.array(TaskJson), total: z.number().optional() });
export const OkResponse = z.object({ ok: z.literal(true) });

export const TaskEvent = z.object({
  type: z.enum(['queued', 'started', 'attention', 'exited', 'removed']),
  at: z.string(),
  task: TaskJson,
});
/** An event as the daemon holds it: its task without the flat status, which is added on the way out. */
export type TaskEvent = Omit<z.infer<typeof TaskEvent>, 'task'> & { task: Task };
