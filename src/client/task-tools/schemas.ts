/** The task tools' inputs and answers, and the one set of defaults and limits both adapters offer. */
import { z } from 'zod';
import { Attention, shellExitCode, statusOf, TaskId, type Task } from '../../api/tasks.js';
import { readLimitWords } from '../format.js';

export const TASK_TOOL_LIMITS = {
  /** task_output: bytes per read by default, at most (a read always holds at least one whole character). */
  outputDefault: 64 * 1024,
  outputMax: 1024 * 1024,
  /** Stopping a task: how long to wait for it to end after the signal. */
  killWaitSeconds: 5,
  /** Waiting for a task: by default, at most; and how much of the end of its output comes along. */
  waitDefaultSeconds: 60,
  waitMaxSeconds: 600,
  waitTailBytes: 4 * 1024,
  /** Listing tasks: the most recent ones, at most. */
  listMax: 100,
} as const;
const L = TASK_TOOL_LIMITS;

/** A task id; models often send it as a number. */
export const TaskRef = z.preprocess((v) => (typeof v === 'number' && Number.isInteger(v) ? String(v) : v), TaskId);

export const RunInput = {
  command: z
    .union([z.string().min(1, 'command is empty'), z.array(z.string()).min(1, 'command is empty')], {
      errorMap: (issue, ctx) => ({
        message: issue.code === 'invalid_union' ? 'command must be a command line (a string) or an argv array of strings' : ctx.defaultError,
      }),
    })
    .describe('a shell command line ("npm test 2>&1 | tail") or an argv array (["make", "-j4"])'),
  cwd: z.string().min(1).optional().describe('working directory; relative paths resolve against the default one'),
  name: z.string().min(1).max(200).optional().describe('a label for the task'),
  stall_after_seconds: z
    .number()
    .min(1)
    .max(7 * 24 * 3600)
    .optional()
    .describe('seconds without output before nightshift checks whether the task waits at a prompt (default 45)'),
  stdin: z.boolean().optional().describe('true: keep stdin open so input can be sent to it (default false)'),
  after: z
    .array(TaskRef)
    .min(1)
    .max(256)
    .optional()
    .describe('task ids: start only once all of them exited 0; if one fails (or is killed, times out, is skipped) this task is skipped'),
  after_any: z.boolean().optional().describe('with after: start once they ended, however they ended'),
  group: z.string().min(1).max(64).optional().describe('a task group (made with `nightshift group add`): runs under its parallel limit, queued in order'),
  timeout_seconds: z
    .number()
    .positive()
    .max(20 * 24 * 3600)
    .optional()
    .describe('kill its whole process tree after this many seconds (status timed_out)'),
};

export const PauseInput = { task_id: TaskRef.describe('the task id') };

export const RestartInput = { task_id: TaskRef.describe('the id of a finished task') };

export const OutputInput = {
  task_id: TaskRef.describe('the task id'),
  offset: z.number().int().min(0).optional().describe('byte offset to start at (default 0)'),
  limit: z
    .number()
    .int()
    .min(1)
    .max(L.outputMax)
    .optional()
    .describe(readLimitWords('limit', L.outputDefault, L.outputMax)),
  tail_lines: z.number().int().min(1).max(100_000).optional().describe('read the last N lines instead (not with offset)'),
};

export const InputInput = {
  task_id: TaskRef,
  text: z.string().max(1024 * 1024),
  eof: z.boolean().optional().describe("close the task's stdin after writing"),
  newline: z.boolean().optional().describe('append a newline (default true)'),
};

export const KillInput = { task_id: TaskRef, signal: z.string().min(1).max(16).optional().describe('signal name (default SIGTERM)') };

export const WaitInput = {
  task_id: TaskRef,
  timeout_seconds: z.number().min(0).max(L.waitMaxSeconds).optional().describe(`seconds to wait at most (default ${L.waitDefaultSeconds})`),
};

export const ListInput = { all: z.boolean().optional().describe('include finished tasks (default true)') };

/** A task as the tools answer it (snake_case, the fields that apply). */
export const TaskSummary = z.object({
  task_id: z.string(),
  name: z.string().nullable(),
  status: z.string(),
  command: z.array(z.string()),
  cwd: z.string(),
  pid: z.number().optional(),
  exit_code: z.number().optional(),
  signal: z.string().optional(),
  error: z.string().optional(),
  reason: z.string().optional(),
  attention: Attention.optional(),
  paused: z.boolean().optional(),
  group: z.string().optional(),
  after: z.array(z.string()).optional(),
  restart_of: z.string().optional(),
  output_bytes: z.number(),
  created_at: z.string(),
  started_at: z.string().optional(),
  ended_at: z.string().optional(),
});
export type TaskSummary = z.infer<typeof TaskSummary>;

export const OutputAnswer = {
  task_id: z.string(),
  data: z.string(),
  offset: z.number(),
  next_offset: z.number(),
  size: z.number(),
  status: z.string(),
  done: z.boolean(),
  exit_code: z.number().optional(),
  signal: z.string().optional(),
  error: z.string().optional(),
  attention: Attention.optional(),
};

export function summary(t: Task): TaskSummary {
  const s: TaskSummary = {
    task_id: t.id,
    name: t.name,
    status: statusOf(t),
    command: t.command,
    cwd: t.cwd,
    output_bytes: t.outputBytes,
    created_at: t.createdAt,
  };
  if ('pid' in t && t.pid !== undefined) s.pid = t.pid;
  const code = shellExitCode(t);
  if (code !== null) s.exit_code = code;
  const o = t.state === 'finished' ? t.outcome : undefined;
  if (o && 'signal' in o) s.signal = o.signal;
  if (o && 'error' in o) s.error = o.error;
  if (o && 'reason' in o && o.reason) s.reason = o.reason;
  if (t.state === 'running' && t.attention) s.attention = t.attention;
  if (t.state === 'running' && t.paused) s.paused = true;
  if (t.group) s.group = t.group;
  if (t.after) s.after = t.after;
  if (t.restartOf) s.restart_of = t.restartOf;
  if ('startedAt' in t && t.startedAt) s.started_at = t.startedAt;
  if ('endedAt' in t) s.ended_at = t.endedAt;
  return s;
}
