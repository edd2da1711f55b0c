import type { Task } from '../api/tasks.js';
import { isFinished, statusText } from '../api/task-status.js';
import { nowMs } from '../clock.js';
import { AppError } from '../errors.js';
import type { TaskEvents } from './events.js';
import type { TaskRegistry } from './registry.js';

/** Resolves when the task ends or is removed, or with its current state once `timeoutMs` pass. */
export function waitForEnd(events: TaskEvents, task: Task, timeoutMs: number, current: () => Promise<Task>): Promise<{ task: Task; timedOut: boolean }> {
  return new Promise((resolve) => {
    const off = events.on((ev) => {
      if (ev.task.id !== task.id || (ev.type !== 'exited' && ev.type !== 'removed')) return;
      clearTimeout(timer);
      off();
      resolve({ task: ev.task, timedOut: false });
    });
    const timer = setTimeout(() => {
      off();
      current().then(
        (t) => resolve({ task: t, timedOut: true }),
        () => resolve({ task, timedOut: true }),
      );
    }, timeoutMs);
  });
}

/**
 * Resolves once the ended task's end is on disk, so an answer to `wait` survives a daemon killed
 * right after it. When it cannot be saved (a full disk) the error says how the task ended.
 */
export async function endOnDisk(registry: TaskRegistry, task: Task): Promise<void> {
  try {
    await registry.durable(task.id);
  } catch (err) {
    if (!(err instanceof AppError) || err.code !== 'disk_full') throw err;
    throw new AppError(
      'disk_full',
      `task ${task.id} ended (${endOf(task)}), but that is not saved yet: ${err.message} (the daemon saves it by itself once there is room)`,
      err,
    );
  }
}

/** How a task ended, in a few words. */
const endOf = (task: Task): string => statusText(task);

/** `wait`: a failed attempt that was retried is followed, so the answer is the last attempt's. */
export async function waitLastAttempt(
  registry: TaskRegistry,
  events: TaskEvents,
  id: string,
  timeoutMs: number,
  get: (id: string) => Promise<Task>,
): Promise<{ task: Task; timedOut: boolean }> {
  const until = nowMs() + timeoutMs;
  const one = async (taskId: string, ms: number) => {
    const task = await get(taskId);
    const r = isFinished(task) ? { task, timedOut: false } : await waitForEnd(events, task, ms, () => get(taskId));
    if (isFinished(r.task)) await endOnDisk(registry, r.task);
    return r;
  };
  let r = await one(id, timeoutMs);
  while (r.task.retriedBy !== undefined && registry.get(r.task.retriedBy)) r = await one(r.task.retriedBy, Math.max(0, until - nowMs()));
  return r;
}
