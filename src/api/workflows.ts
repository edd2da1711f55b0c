/**
 * Workflows: a file naming tasks and what each needs, run as linked tasks (a DAG). The file's shape
 * is checked by one schema on both sides: the CLI (which adds the file's line and column to each
 * problem) and the daemon (which gets the parsed file as the body of `POST /v1/workflows`).
 */
import { z } from 'zod';
import { DURATION_WORDS, parseDuration } from './duration.js';
import { GroupName } from './groups.js';
import { durationText } from './format.js';
import { MAX_RETRY, MAX_RETRY_DELAY_SECONDS, MAX_STALL_SECONDS, MAX_TIMEOUT_SECONDS, MIN_STALL_SECONDS } from './limits.js';
import { RunRequest, Task, TaskId } from './tasks.js';

/** Workflow ids are `w` and a counter (`w3`). */
export const WorkflowId = z.string().regex(/^w[1-9][0-9]{0,11}$/, 'workflow ids look like w3');

const TaskName = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,62}$/, 'task names are letters, digits, "_", "." and "-" (at most 63), e.g. build');

/** `30s`, `5m`, `1h30m` or a number of seconds. */
const AnyDuration = z.union([z.number().nonnegative(), z.string().refine((v) => parseDuration(v) !== null, { message: `must be ${DURATION_WORDS}` })]);

/** A duration within the range the task's own field takes, said in the file's terms (`timeout`, not `timeoutSeconds`). */
function Duration(range: { above0?: boolean; min?: number; max: number }) {
  const { above0 = false, min = 0, max } = range;
  const lower = above0 ? 'above 0' : min > 0 ? `at least ${durationText(min * 1000)}` : '';
  const bounds = [lower, `at most ${durationText(max * 1000)}`].filter(Boolean).join(' and ');
  return AnyDuration.refine((v) => {
    const s = durationSeconds(v);
    return (above0 ? s > 0 : s >= min) && s <= max;
  }, `must be a duration ${bounds} (30s, 5m, 1h30m; a bare number is seconds)`);
}

/** Seconds of a duration the schema accepted. */
export function durationSeconds(v: string | number): number {
  return typeof v === 'number' ? v : (parseDuration(v) ?? 0);
}

export const WorkflowTaskSpec = z
  .object({
    /** A command line (run by sh -c when it has shell syntax) or an argv array. */
    command: z.union([RunRequest.shape.command.element.min(1, 'command is empty'), RunRequest.shape.command]),
    needs: z.array(z.string()).max(256).optional(),
    /** Start once every need ended, however it ended (`run --after-any`). */
    needsAny: z.boolean().optional(),
    group: GroupName.optional(),
    timeout: Duration({ above0: true, max: MAX_TIMEOUT_SECONDS }).optional(),
    retry: z.number().int().min(0).max(MAX_RETRY, `must be a whole number from 0 to ${MAX_RETRY}`).optional(),
    retryDelay: Duration({ max: MAX_RETRY_DELAY_SECONDS }).optional(),
    /** Relative to the workflow file's directory. */
    cwd: z.string().min(1).max(4096).optional(),
    env: RunRequest.shape.env,
    labels: RunRequest.shape.labels,
    /** Seconds without output before nightshift checks for a prompt. */
    stall: Duration({ min: MIN_STALL_SECONDS, max: MAX_STALL_SECONDS }).optional(),
  })
  .strict();
export type WorkflowTaskSpec = z.infer<typeof WorkflowTaskSpec>;

/** `NIGHTSHIFT_OUTPUT_<NAME>`: the name upper-cased, anything but letters and digits as `_`. */
export function outputVariable(name: string): string {
  return `NIGHTSHIFT_OUTPUT_${name.toUpperCase().replace(/[^A-Z0-9]/g, '_')}`;
}

/**
 * The first cycle among the tasks' needs, as names (`a`, `b`, `a`), or null. Iterative (an explicit
 * stack): a long chain must not exhaust the call stack, whatever its length.
 */
export function findCycle(needs: Record<string, readonly string[]>): string[] | null {
  const state = new Map<string, 'open' | 'done'>();
  for (const root of Object.keys(needs)) {
    if (state.has(root)) continue;
    // Each frame: a name and the index of the next need to look at; `path` is the open chain.
    const frames: { n: string; i: number }[] = [{ n: root, i: 0 }];
    const path: string[] = [root];
    state.set(root, 'open');
    while (frames.length > 0) {
      const top = frames[frames.length - 1] as { n: string; i: number };
      const next = (needs[top.n] ?? [])[top.i++];
      if (next === undefined) {
        frames.pop();
        path.pop();
        state.set(top.n, 'done');
        continue;
      }
      if (!(next in needs) || state.get(next) === 'done') continue;
      if (state.get(next) === 'open') return [...path.slice(path.indexOf(next)), next];
      state.set(next, 'open');
      frames.push({ n: next, i: 0 });
      path.push(next);
    }
  }
  return null;
}

/** Names in an order where each comes after everything it needs (ties: file order). Iterative, like findCycle. */
export function topologicalOrder(needs: Record<string, readonly string[]>): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  for (const root of Object.keys(needs)) {
    if (seen.has(root)) continue;
    seen.add(root);
    const frames: { n: string; i: number }[] = [{ n: root, i: 0 }];
    while (frames.length > 0) {
      const top = frames[frames.length - 1] as { n: string; i: number };
      const next = (needs[top.n] ?? [])[top.i++];
      if (next === undefined) {
        frames.pop();
        out.push(top.n);
      } else if (!seen.has(next)) {
        seen.add(next);
        frames.push({ n: next, i: 0 });
      }
    }
  }
  return out;
}

/** The documented limit, checked before anything that walks the graph. */
export const MAX_WORKFLOW_TASKS = 256;

export const WorkflowSpec = z
  .object({
    name: RunRequest.shape.name,
    // Counted before each task is parsed: 10,000 of them are refused at once, with one message.
    tasks: z
      .unknown()
      .superRefine((t, ctx) => {
        const n = t !== null && typeof t === 'object' && !Array.isArray(t) ? Object.keys(t).length : 0;
        if (n > MAX_WORKFLOW_TASKS) ctx.addIssue({ code: 'custom', message: `at most ${MAX_WORKFLOW_TASKS} tasks (this workflow has ${n})`, fatal: true });
      })
      .pipe(z.record(TaskName, WorkflowTaskSpec)),
  })
  .strict()
  .superRefine((w, ctx) => {
    const names = Object.keys(w.tasks);
    if (names.length > MAX_WORKFLOW_TASKS) return;
    if (names.length === 0) ctx.addIssue({ code: 'custom', path: ['tasks'], message: 'the workflow has no tasks' });
    const byVariable = new Map<string, string>();
    for (const [name, t] of Object.entries(w.tasks)) {
      const v = outputVariable(name);
      const other = byVariable.get(v);
      if (other !== undefined) ctx.addIssue({ code: 'custom', path: ['tasks', name], message: `tasks "${other}" and "${name}" would share ${v}; rename one` });
      byVariable.set(v, name);
      (t.needs ?? []).forEach((need, i) => {
        if (!(need in w.tasks)) ctx.addIssue({ code: 'custom', path: ['tasks', name, 'needs', i], message: `unknown task "${need}"` });
        else if (need === name) ctx.addIssue({ code: 'custom', path: ['tasks', name, 'needs', i], message: `task "${name}" needs itself` });
      });
    }
    const cycle = findCycle(Object.fromEntries(Object.entries(w.tasks).map(([n, t]) => [n, (t.needs ?? []).filter((m) => m !== n)])));
    if (cycle?.[0] !== undefined) ctx.addIssue({ code: 'custom', path: ['tasks', cycle[0], 'needs'], message: `cycle: ${cycle.join(' → ')}` });
  });
export type WorkflowSpec = z.infer<typeof WorkflowSpec>;

export const RunWorkflowRequest = z
  .object({
    workflow: WorkflowSpec,
    /** The file it came from (absolute): relative `cwd`s resolve from its directory. */
    file: z.string().min(1).max(4096).startsWith('/', 'file must be an absolute path').optional(),
    /** The client's working directory: where relative `cwd`s resolve when there is no file. */
    cwd: RunRequest.shape.cwd,
    /** The environment every task starts from (the client's); each task's `env` is added. */
    env: RunRequest.shape.env,
  })
  .strict();
export type RunWorkflowRequest = z.infer<typeof RunWorkflowRequest>;

/** What `<state>/workflows.json` keeps of one workflow. */
export const WorkflowRecord = z.object({
  id: WorkflowId,
  name: z.string().nullable(),
  file: z.string().nullable(),
  createdAt: z.string(),
  /** Task name → the id of its first attempt (retries follow `retriedBy`). */
  tasks: z.record(z.string(), TaskId),
  needs: z.record(z.string(), z.array(z.string())),
  needsAny: z.array(z.string()).optional(),
  /** Set by `workflow kill`. */
  killedAt: z.string().optional(),
});
export type WorkflowRecord = z.infer<typeof WorkflowRecord>;

export const NODE_STATES = ['queued', 'running', 'succeeded', 'failed', 'skipped'] as const;
export const WORKFLOW_STATES = ['queued', 'running', 'succeeded', 'failed', 'killed'] as const;

export const WorkflowNode = z.object({
  name: z.string(),
  state: z.enum(NODE_STATES),
  needs: z.array(z.string()),
  /** Longest chain of needs above it (0: needs nothing): the layer `workflow show` draws it in. */
  depth: z.number(),
  attempts: z.number(),
  /** The latest attempt (absent when it was removed). */
  task: Task.optional(),
});
export type WorkflowNode = z.infer<typeof WorkflowNode>;

export const WorkflowView = WorkflowRecord.extend({
  state: z.enum(WORKFLOW_STATES),
  nodes: z.array(WorkflowNode),
});
export type WorkflowView = z.infer<typeof WorkflowView>;

export const WorkflowResponse = z.object({ workflow: WorkflowView });
export const WorkflowListResponse = z.object({ workflows: z.array(WorkflowView) });
