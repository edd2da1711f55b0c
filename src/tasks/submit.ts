/**
 * `run`: a request becomes a task (its id, directory and meta.json), started at once when the queue
 * would start it now, else queued with its environment in spawn.json. Moved out of TaskManager as is.
 */
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
import { workflowOf } from './outcome.js';
import { decide } from './queue.js';
import type { TaskRegistry } from './registry.js';
import { preflight, toArgv } from './spawn.js';
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
  for (const dep of req.after ?? []) {
    if (!c.registry.get(dep)) throw new AppError('not_found', `no task ${dep} to run after (see \`nightshift ps --all\`)`);
  }
  if (req.group !== undefined) c.groups.check(req.group);
  const { retry, ...rest } = req;
  const workflow = workflowOf({
    ...rest,
    ...(retry ? { retries: retry, attempt: 1 } : {}),
    ...(link?.restartOf !== undefined ? { restartOf: link.restartOf } : {}),
  });
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
  const meta: TaskMeta = {
    id,
    name: req.name ?? null,
    command,
    cwd: req.cwd,
    createdAt: now().toISOString(),
    stallAfterSeconds: req.stallAfterSeconds ?? c.config().stallAfterSeconds,
    stdin: req.stdin,
    ...workflow,
  };
  const task: Task = {
    ...meta,
    ...(link?.schedule && { schedule: link.schedule }),
    stdin: req.stdin ? 'open' : 'none',
    outputPath: join(dir, 'output.log'),
    outputBytes: 0,
    status: 'queued',
  };
  // On a full disk these fail naming the file: nothing started, nothing left behind.
  const writeOrUndo = async (name: string, text: string) => {
    try {
      writeTaskFile(dir, name, text);
    } catch (err) {
      await rm(dir, { recursive: true, force: true });
      throw err;
    }
  };
  await writeOrUndo('meta.json', JSON.stringify(meta));
  // Starts at once when the queue would start it now (its dependencies done, room in its group).
  const startable = decide([...c.registry.list(), { task }], (g) => c.groups.limit(g), nowMs()).start.some((t) => t.id === id);
  // A task that may be retried keeps its environment for its next attempts (see retry.ts).
  if (retry) await writeOrUndo('spawn.json', JSON.stringify({ env }));
  if (startable) {
    await c.start(task, env);
  } else {
    await writeOrUndo('spawn.json', JSON.stringify({ env }));
    c.registry.set(task);
    c.events.emit('queued', task);
    // A dependency that has already failed skips it now.
    await c.schedule();
  }
  await c.persist();
  return id;
}
