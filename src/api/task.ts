import { z } from 'zod';
import { AgentInfo } from './agent.js';
import { fromFlatStatus, taskJson } from './task-json.js';
import { Outcome } from './task-outcome.js';

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

/**
 * A task is queued, running or finished; a finished one has an outcome (api/task-outcome.ts). Each
 * state carries its own times, so no field is present that its state cannot have.
 */
const TaskByState = z.discriminatedUnion('state', [
  z.object({ ...common, state: z.literal('queued') }),
  z.object({
    ...common,
    state: z.literal('running'),
    /** The command's pid (the leader of its process group), once the wrapper has started it. */
    pid: z.number().optional(),
    startedAt: z.string(),
    attention: Attention.optional(),
    /** Stopped with SIGSTOP (`pause`) until `resume`. */
    paused: z.boolean().optional(),
  }),
  z.object({
    ...common,
    state: z.literal('finished'),
    // A task killed while queued, skipped or never started has no pid and no start.
    pid: z.number().optional(),
    startedAt: z.string().optional(),
    endedAt: z.string(),
    outcome: Outcome,
  }),
]);

/** Reads tasks as every release wrote them: before state and outcome, a flat `status` with the outcome's fields beside it. */
export const Task = z.preprocess(fromFlatStatus, TaskByState);
export type Task = z.infer<typeof TaskByState>;

/**
 * A task as the API answers it: state and outcome, with the flat status (and a finished task's
 * outcome fields) beside them, so clients written against earlier releases read it as before.
 */
export const TaskJson = Task.transform((t) => taskJson(t));
export type TaskJson = z.output<typeof TaskJson>;
