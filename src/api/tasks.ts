import { z } from 'zod';
import { AgentInfo } from './agent.js';
import { GroupName } from './groups.js';
import {
  durationText,
  MAX_OFFSET,
  MAX_READ_BYTES,
  MAX_RETRY,
  MAX_RETRY_DELAY_SECONDS,
  MAX_STALL_SECONDS,
  MAX_TIMEOUT_SECONDS,
  MIN_STALL_SECONDS,
} from './limits.js';
import type { TaskStatus as StatusName } from './task-status.js';

/** Task ids are decimal counters; anything else (../, slashes, letters) is rejected at the boundary. */
export const TaskId = z.string().regex(/^[1-9][0-9]{0,11}$/, 'task ids are positive integers, e.g. 12');

export const Attention = z.object({
  kind: z.enum(['prompt', 'silent']),
  since: z.string(),
  tail: z.string(),
});
export type Attention = z.infer<typeof Attention>;

/** Schedule ids are `s` and a counter (`s3`), so they never read as a task id or a name. */
export const ScheduleId = z.string().regex(/^s[1-9][0-9]{0,11}$/, 'schedule ids look like s3');
/** What a task fired by a schedule carries (`ps` shows it). */
export const ScheduleLink = z.object({ id: ScheduleId, name: z.string().nullable() });
export type ScheduleLink = z.infer<typeof ScheduleLink>;

/** What a task carries of workflows (dependencies, group, timeout, restart, labels, retries); meta.json keeps the same. */
export const WorkflowFields = {
  /** Starts once these tasks ended: all of them exited 0, or (afterAny) in any state. */
  after: z.array(z.string()).optional(),
  afterAny: z.boolean().optional(),
  /** The group whose parallel limit it runs under (absent: `default`). */
  group: z.string().optional(),
  /** Killed (its whole process group) this many seconds after it started: `timed_out`. */
  timeoutSeconds: z.number().optional(),
  /** `restart`: the task this one is a new run of. */
  restartOf: z.string().optional(),
  labels: z.record(z.string(), z.string()).optional(),
  /** `run --retry`: runs left after this one if it fails; the delay before the next; which run this is (1-based). */
  retries: z.number().optional(),
  retryDelaySeconds: z.number().optional(),
  attempt: z.number().optional(),
  /** The attempt before this one. */
  retryOf: z.string().optional(),
};

const common = {
  id: TaskId,
  name: z.string().nullable(),
  command: z.array(z.string()),
  cwd: z.string(),
  createdAt: z.string(),
  stallAfterSeconds: z.number(),
  stdin: z.enum(['open', 'closed', 'none']),
  outputPath: z.string(),
  outputBytes: z.number(),
  /** Agent tasks only (`nightshift agent`): spec, context health, result. Filled in by `GET /v1/tasks/:id`. */
  agent: AgentInfo.optional(),
  /** Why the task's latest state is not on disk yet (the daemon could not save it, e.g. a full disk); it keeps trying. */
  saveError: z.string().optional(),
  /** The schedule whose firing started it (`nightshift schedule`). */
  schedule: ScheduleLink.optional(),
  ...WorkflowFields,
  /** The attempt after this one (set once this one failed and another was queued). */
  retriedBy: z.string().optional(),
  /** A queued attempt starts no earlier than this. */
  notBefore: z.string().optional(),
};

/** Task status as a discriminated union; each variant carries its own times (ARCHITECTURE.md § Task states). */
export const Task = z.discriminatedUnion('status', [
  z.object({ ...common, status: z.literal('queued') }),
  z.object({
    ...common,
    status: z.literal('running'),
    /** The command's pid (the leader of its process group), once the wrapper has started it. */
    pid: z.number().optional(),
    startedAt: z.string(),
    attention: Attention.optional(),
    /** Stopped with SIGSTOP (`pause`) until `resume`. */
    paused: z.boolean().optional(),
  }),
  z.object({
    ...common,
    status: z.literal('exited'),
    pid: z.number().optional(),
    startedAt: z.string(),
    endedAt: z.string(),
    exitCode: z.number(),
    reason: z.string().optional(),
  }),
  z.object({
    ...common,
    status: z.literal('killed'),
    // A queued task that is killed never had a pid.
    pid: z.number().optional(),
    startedAt: z.string().optional(),
    endedAt: z.string(),
    signal: z.string(),
    exitCode: z.number(),
    reason: z.string().optional(),
  }),
  z.object({
    ...common,
    status: z.literal('timed_out'),
    pid: z.number().optional(),
    startedAt: z.string(),
    endedAt: z.string(),
    /** The signal that ended it (SIGTERM at the deadline, SIGKILL when that was not enough). */
    signal: z.string().optional(),
    reason: z.string(),
  }),
  /** Never ran: a dependency did not succeed (`reason` says which and how). */
  z.object({ ...common, status: z.literal('skipped'), endedAt: z.string(), reason: z.string() }),
  z.object({ ...common, status: z.literal('failed_to_start'), endedAt: z.string(), error: z.string() }),
  z.object({
    ...common,
    status: z.literal('lost'),
    pid: z.number().optional(),
    startedAt: z.string().optional(),
    endedAt: z.string(),
    reason: z.string(),
  }),
]);
export type Task = z.infer<typeof Task>;
export type TaskStatus = Task['status'];
/** Compiles only while task-status.ts (zod-free, for the fast path) names the same statuses as the union. */
export type StatusesAgree = Agree<[TaskStatus, StatusName] extends [StatusName, TaskStatus] ? true : false>;
type Agree<T extends true> = T;

// Zod-free, for the hot commands (the CLI's fast path loads no zod).
export { FINISHED, isFinished, shellExitCode } from './task-status.js';

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
      .min(MIN_STALL_SECONDS, `must be from ${MIN_STALL_SECONDS} to ${MAX_STALL_SECONDS} seconds (${durationText(MAX_STALL_SECONDS)})`)
      .max(MAX_STALL_SECONDS, `must be from ${MIN_STALL_SECONDS} to ${MAX_STALL_SECONDS} seconds (${durationText(MAX_STALL_SECONDS)})`)
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
      .max(MAX_RETRY_DELAY_SECONDS, `must be at most ${MAX_RETRY_DELAY_SECONDS} seconds (${durationText(MAX_RETRY_DELAY_SECONDS)})`)
      .optional(),
    timeoutSeconds: z
      .number()
      .positive(`must be above 0 and at most ${MAX_TIMEOUT_SECONDS} seconds (${durationText(MAX_TIMEOUT_SECONDS)})`)
      .max(MAX_TIMEOUT_SECONDS, `must be above 0 and at most ${MAX_TIMEOUT_SECONDS} seconds (${durationText(MAX_TIMEOUT_SECONDS)})`)
      .optional(),
  })
  .strict();
export type RunRequest = z.infer<typeof RunRequest>;

export const TASK_STATUSES = ['queued', 'running', 'exited', 'killed', 'timed_out', 'skipped', 'failed_to_start', 'lost'] as const;

export const ListQuery = z
  .object({
    all: z.enum(['0', '1']).default('0'),
    group: GroupName.optional(),
    status: z.enum(TASK_STATUSES).optional(),
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

export const WaitResponse = z.object({ task: Task, timedOut: z.boolean() });
export const TaskResponse = z.object({ task: Task });
/** `total`: how many tasks match the filters (more than `tasks` holds when a page was asked for). */
export const TaskListResponse = z.object({ tasks: z.array(Task), total: z.number().optional() });
export const OkResponse = z.object({ ok: z.literal(true) });

export const TaskEvent = z.object({
  type: z.enum(['queued', 'started', 'attention', 'exited', 'removed']),
  at: z.string(),
  task: Task,
});
export type TaskEvent = z.infer<typeof TaskEvent>;
