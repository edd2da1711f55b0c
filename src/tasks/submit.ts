/**
 * Submission: a `run` request becomes a task (its id, directory and meta.json), started at once when
 * the queue would start it now, else queued with its environment in spawn.json. A batch (a workflow;
 * MCP's and the API's batch) is checked whole first, so it is taken whole or not at all; then each
 * item gets its id, directory and files, all are registered and journaled in one write, and one
 * pass of the queue starts what can start, in one write to the spawner. `restart` is a new request
 * made from a finished task.
 */
import { rmSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { isFinished, statusOf, type RunRequest, type ScheduleLink, type Task } from '../api/tasks.js';
import { now, nowMs } from '../clock.js';
import { AppError } from '../errors.js';
import { preflight, toArgv } from './argv.js';
import type { TaskContext } from './context.js';
import type { TaskMeta } from './model.js';
import { baseOf, workflowOf } from './outcome.js';
import { decide } from './queue.js';
import type { TaskRunner } from './runner.js';
import { claimTaskDir, writeTaskFile } from './task-dir.js';

/** See `TaskManager.run`. */
export type PrepareTask = (task: { id: string; dir: string }) => Promise<{ command?: string[] }>;

export interface BatchItem {
  req: RunRequest;
  /** Indexes of earlier items of the batch this one runs after (with `req.after`, if any). */
  afterItems?: number[];
}

/** Creates the task and starts or queues it; answers its id. */
export async function submitTask(
  c: TaskContext,
  runner: TaskRunner,
  req: RunRequest,
  prepare?: PrepareTask,
  link?: { schedule?: ScheduleLink; restartOf?: string },
): Promise<string> {
  const env = { ...(req.env ?? {}) };
  preflight(toArgv(req.command), req.cwd, env);
  checkRefs(c, req);
  const { id, dir } = claimTaskDir(c);
  let command = req.command;
  if (prepare) {
    try {
      command = (await prepare({ id, dir })).command ?? command;
    } catch (err) {
      await rm(dir, { recursive: true, force: true });
      throw err;
    }
  }
  const task = newTask(c, { ...req, command }, id, dir, link);
  // On a full disk these fail naming the file: nothing started, nothing left behind.
  writeTaskFiles(dir, task, env, Boolean(req.retry));
  // Starts at once when the queue would start it now (its dependencies done, room in its group).
  const startable = decide([...c.registry.list(), { task }], (g) => c.groups.limit(g), nowMs()).start.some((t) => t.id === id);
  if (startable) {
    await runner.start(task, env);
  } else {
    if (!req.retry) writeSpawn(dir, env);
    runner.remember(id, env);
    c.registry.set(task);
    c.events.emit('queued', task);
    // A dependency that has already failed skips it now.
    await runner.schedule();
  }
  await c.persist();
  return id;
}

/** The dependencies exist and the group is known. */
function checkRefs(c: TaskContext, req: Pick<RunRequest, 'after' | 'group'>): void {
  for (const dep of req.after ?? []) {
    if (!c.registry.get(dep)) throw new AppError('not_found', `no task ${dep} to run after (see \`nightshift ps --all\`)`);
  }
  if (req.group !== undefined) c.groups.check(req.group);
}

/** The queued task a request makes, with the fields meta.json keeps. */
function newTask(c: TaskContext, req: RunRequest, id: string, dir: string, link?: { schedule?: ScheduleLink; restartOf?: string }): Task {
  const { retry, ...rest } = req;
  const workflow = workflowOf({
    ...rest,
    ...(retry ? { retries: retry, attempt: 1 } : {}),
    ...(link?.restartOf !== undefined ? { restartOf: link.restartOf } : {}),
  });
  return {
    id,
    name: req.name ?? null,
    command: req.command,
    cwd: req.cwd,
    createdAt: now().toISOString(),
    stallAfterSeconds: req.stallAfterSeconds ?? c.config.stallAfterSeconds,
    ...workflow,
    ...(link?.schedule && { schedule: link.schedule }),
    stdin: req.stdin ? 'open' : 'none',
    outputPath: join(dir, 'output.log'),
    outputBytes: 0,
    state: 'queued',
  };
}

/**
 * meta.json (what a rebuild needs) and, for a task that may be retried, its environment for the
 * next attempts (see retry.ts). On a full disk the directory is removed and the error names the file.
 */
function writeTaskFiles(dir: string, task: Task, env: Record<string, string>, keepEnv: boolean): void {
  const { outputPath: _path, outputBytes: _bytes, schedule: _schedule, ...fields } = baseOf(task);
  const meta: TaskMeta = { ...fields, stdin: task.stdin === 'open' };
  try {
    writeTaskFile(dir, 'meta.json', JSON.stringify(meta));
    if (keepEnv) writeSpawn(dir, env);
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
}

/** A queued task's environment, read back when it starts (0600). */
function writeSpawn(dir: string, env: Record<string, string>): void {
  try {
    writeTaskFile(dir, 'spawn.json', JSON.stringify({ env }));
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
}

/** Every item can run: its command found, its cwd a directory, its dependencies and group known. */
export function checkBatch(c: TaskContext, items: BatchItem[]): void {
  // Identical commands in one cwd with one PATH (a fan-out) are looked up once.
  const checked = new Set<string>();
  items.forEach(({ req, afterItems }, i) => {
    const argv = toArgv(req.command);
    const key = `${argv[0] ?? ''}\0${req.cwd}\0${req.env?.PATH ?? ''}`;
    if (!checked.has(key)) {
      preflight(argv, req.cwd, req.env ?? {});
      checked.add(key);
    }
    checkRefs(c, req);
    for (const k of afterItems ?? []) if (!(k >= 0 && k < i)) throw new AppError('bad_request', `item ${i} runs after item ${k}, which is not an earlier item`);
  });
}

/** Checks every item, then submits them all; answers their ids in order. */
export async function submitBatch(c: TaskContext, runner: TaskRunner, items: BatchItem[]): Promise<string[]> {
  checkBatch(c, items);
  const made: { task: Task; dir: string }[] = [];
  try {
    for (const { req, afterItems } of items) {
      const after = [...(req.after ?? []), ...(afterItems ?? []).map((k) => made[k]?.task.id ?? '')];
      const { id, dir } = claimTaskDir(c);
      const task = newTask(c, { ...req, ...(after.length > 0 && { after }) }, id, dir);
      const env = req.env ?? {};
      writeTaskFiles(dir, task, env, Boolean(req.retry));
      if (!req.retry) writeSpawn(dir, env);
      made.push({ task, dir });
    }
  } catch (err) {
    // Nothing was registered yet: the batch leaves nothing behind.
    for (const { dir } of made) rmSync(dir, { recursive: true, force: true });
    throw err;
  }
  made.forEach(({ task }, i) => {
    runner.remember(task.id, items[i]?.req.env ?? {});
    c.registry.set(task);
    c.events.emit('queued', task);
  });
  await c.persist();
  await runner.schedule();
  return made.map(({ task }) => task.id);
}

/**
 * The command, cwd, name, stdin, stall time, group (while it exists), timeout, labels and retries
 * (`--retry` as first given, and its delay) of `old`; not its dependencies: the new task runs now.
 * The environment is the caller's, since a task's own is not kept once it has started.
 */
export function restartRequest(old: Task, env: Record<string, string>, groupExists: (name: string) => boolean): RunRequest {
  if (!isFinished(old)) throw new AppError('conflict', `task ${old.id} is ${statusOf(old)}; kill it (\`nightshift kill ${old.id}\`) or wait for it first`);
  return {
    command: old.command,
    cwd: old.cwd,
    env,
    stdin: old.stdin !== 'none',
    stallAfterSeconds: old.stallAfterSeconds,
    ...(old.name !== null ? { name: old.name } : {}),
    ...(old.group !== undefined && groupExists(old.group) ? { group: old.group } : {}),
    ...(old.timeoutSeconds !== undefined ? { timeoutSeconds: old.timeoutSeconds } : {}),
    ...(old.labels !== undefined ? { labels: old.labels } : {}),
    ...(old.retries !== undefined ? { retry: firstRetry(old.retries, old.attempt) } : {}),
    ...(old.retryDelaySeconds !== undefined ? { retryDelaySeconds: old.retryDelaySeconds } : {}),
  };
}

/** The `--retry N` the first attempt was given: attempt k has N − (k − 1) runs left. */
function firstRetry(retriesLeft: number, attempt: number | undefined): number {
  return retriesLeft + (attempt ?? 1) - 1;
}
