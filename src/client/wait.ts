import { isFinished } from '../api/task-status.js';
import type { TaskJson as Task } from '../api/tasks.js';
import type { ApiClient } from './api-client.js';

/** One long poll is at most this long (the daemon's own cap); a longer wait asks again. */
const POLL_S = 300;

type WaitCaller = <T>(fn: (c: Pick<ApiClient, 'wait'>) => Promise<T>, idempotent?: boolean) => Promise<T>;

/** Waits until the task ends or `seconds` pass (forever without them); the task as it is then. */
export async function waitUpTo(call: WaitCaller, id: string, seconds?: number): Promise<Task> {
  const deadline = seconds === undefined ? Infinity : Date.now() + seconds * 1000;
  for (;;) {
    const left = deadline === Infinity ? POLL_S : Math.max(0, (deadline - Date.now()) / 1000);
    const r = await call((c) => c.wait(id, Math.min(left, POLL_S)), true);
    if (isFinished(r.task) || Date.now() >= deadline) return r.task;
  }
}
