/**
 * Many `run` requests as one submission (a workflow; MCP's and the API's batch): every request is
 * checked first, so the batch is taken whole or not at all; then each gets its id, directory and
 * files, all are registered and journaled in one write, and one pass of the queue starts what can
 * start, in one write to the spawner. A task may run after tasks earlier in the same batch.
 */
import { rmSync } from 'node:fs';
import type { RunRequest, Task } from '../api/tasks.js';
import { AppError } from '../errors.js';
import { preflight, toArgv } from './argv.js';
import { checkRefs, newTask, writeSpawn, writeTaskFiles, type SubmitContext } from './submit.js';
import { claimTaskDir } from './task-dir.js';

export interface BatchItem {
  req: RunRequest;
  /** Indexes of earlier items of the batch this one runs after (with `req.after`, if any). */
  afterItems?: number[];
}

/** Every item can run: its command found, its cwd a directory, its dependencies and group known. */
export function checkBatch(c: SubmitContext, items: BatchItem[]): void {
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
export async function submitBatch(c: SubmitContext, items: BatchItem[]): Promise<string[]> {
  checkBatch(c, items);
  const made: { task: Task; dir: string }[] = [];
  try {
    for (const { req, afterItems } of items) {
      const after = [...(req.after ?? []), ...(afterItems ?? []).map((k) => made[k]?.task.id ?? '')];
      const { id, dir } = claimTaskDir(c.registry, c.tasksDir, c.log);
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
    c.remember(task.id, items[i]?.req.env ?? {});
    c.registry.set(task);
    c.events.emit('queued', task);
  });
  await c.persist();
  await c.schedule();
  return made.map(({ task }) => task.id);
}
