/**
 * `run --retry N`: a task that exits non-zero (or times out) with retries left is followed by its
 * next attempt, a new task of its own (own id, own output.log and offsets) queued after the delay
 * and linked both ways (`retryOf` / `retriedBy`). Its environment stays in the first attempt's
 * spawn.json (0600) and moves from attempt to attempt until the last one starts.
 */
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Task } from '../api/tasks.js';
import { now, nowMs } from '../clock.js';
import type { TaskContext } from './context.js';
import type { TaskMeta } from './model.js';
import { baseOf } from './outcome.js';
import { claimTaskDir, writeTaskFile } from './task-dir.js';

export function shouldRetry(t: Task): boolean {
  if ((t.retries ?? 0) <= 0) return false;
  return t.state === 'finished' && ((t.outcome.kind === 'exited' && t.outcome.exitCode !== 0) || t.outcome.kind === 'timed_out');
}

/** The next attempt of `ended`, queued (not yet in the registry); throws when its files cannot be written. */
function nextAttempt(c: TaskContext, ended: Task): Task {
  const { id, dir } = claimTaskDir(c);
  const { retriedBy: _next, ...base } = baseOf(ended);
  const createdAt = now().toISOString();
  const task: Task = {
    ...base,
    id,
    createdAt,
    stdin: ended.stdin === 'none' ? 'none' : 'open',
    outputPath: join(dir, 'output.log'),
    outputBytes: 0,
    state: 'queued',
    attempt: (ended.attempt ?? 1) + 1,
    retries: (ended.retries ?? 1) - 1,
    retryOf: ended.id,
    notBefore: new Date(nowMs() + (ended.retryDelaySeconds ?? 0) * 1000).toISOString(),
  };
  const { outputPath: _o, outputBytes: _b, state: _s, stdin, notBefore: _n, ...rest } = task;
  const meta: TaskMeta = { ...rest, stdin: stdin !== 'none' };
  writeTaskFile(dir, 'meta.json', JSON.stringify(meta));
  copyFileSync(join(c.dir(ended.id), 'spawn.json'), join(dir, 'spawn.json'));
  return task;
}

/** The next attempt of a task that failed with retries left, queued; undefined when there is none, or it cannot be made (logged). */
export function queueRetry(c: TaskContext, ended: Task): Task | undefined {
  if (!shouldRetry(ended)) return undefined;
  try {
    const next = nextAttempt(c, ended);
    c.log.info({ task: ended.id, next: next.id, attempt: next.attempt }, 'task failed; its next attempt is queued');
    return next;
  } catch (err) {
    c.log.error({ task: ended.id, err: (err as Error).message }, 'could not queue the next attempt of a task');
    return undefined;
  }
}
