/**
 * `run`: a request becomes a task (its id, directory and meta.json), started at once when the queue
 * would start it now, else queued with its environment in spawn.json. Moved out of TaskManager as is.
 */
import { rmSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { RunRequest, ScheduleLink, Task } from '../api/tasks.js';
import { now, nowMs } from '../clock.js';
import type { Config } from '../config.js';
import { AppError } from '../errors.js';
import type { Logger } from '../log.js';
import type { TaskEvents } from './events.js';
import type { GroupStore } from './groups.js';
import type { TaskMeta } from './model.js';
import { baseOf, workflowOf } from './outcome.js';
import { decide } from './queue.js';
import type { TaskRegistry } from './registry.js';
import { preflight, toArgv } from './argv.js';
import { claimTaskDir, writeTaskFile } from './task-dir.js';

/** See `TaskManager.run`. */
export type PrepareTask = (task: { id: string; dir: string }) => Promise<{ command?: string[] }>;

export interface SubmitContext {
  registry: TaskRegistry;
  groups: GroupStore;
  log: Logger;
  events: TaskEvents;
  tasksDir: string;
  config(): Config;
  start(task: Task, env: Record<string, string>): Promise<void>;
  /** Keeps a queued task's environment in memory for its start (spawn.json stays for a restart). */
  remember(id: string, env: Record<string, string>): void;
  schedule(): Promise<void>;
  persist(): Promise<void>;
}

/** Creates the task and starts or queues it; answers its id. */
export async function submitTask(
  c: SubmitContext,
  req: RunRequest,
  prepare?: PrepareTask,
  link?: { schedule?: ScheduleLink; restartOf?: string },
): Promise<string> {
  const env = { ...(req.env ?? {}) };
  preflight(toArgv(req.command), req.cwd, env);
  checkRefs(c, req);
  const { id, dir } = claimTaskDir(c.registry, c.tasksDir, c.log);
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
    await c.start(task, env);
  } else {
    if (!req.retry) writeSpawn(dir, env);
    c.remember(id, env);
    c.registry.set(task);
    c.events.emit('queued', task);
    // A dependency that has already failed skips it now.
    await c.schedule();
  }
  await c.persist();
  return id;
}

/** The dependencies exist and the group is known. */
export function checkRefs(c: SubmitContext, req: Pick<RunRequest, 'after' | 'group'>): void {
  for (const dep of req.after ?? []) {
    if (!c.registry.get(dep)) throw new AppError('not_found', `no task ${dep} to run after (see \`nightshift ps --all\`)`);
  }
  if (req.group !== undefined) c.groups.check(req.group);
}

/** The queued task a request makes, with the fields meta.json keeps. */
export function newTask(c: SubmitContext, req: RunRequest, id: string, dir: string, link?: { schedule?: ScheduleLink; restartOf?: string }): Task {
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
    stallAfterSeconds: req.stallAfterSeconds ?? c.config().stallAfterSeconds,
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
export function writeTaskFiles(dir: string, task: Task, env: Record<string, string>, keepEnv: boolean): void {
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
export function writeSpawn(dir: string, env: Record<string, string>): void {
  try {
    writeTaskFile(dir, 'spawn.json', JSON.stringify({ env }));
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
}
