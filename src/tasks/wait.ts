import type { Task } from '../api/tasks.js';
import type { TaskEvents } from './events.js';

/** Resolves when the task ends or is removed, or with its current state once `timeoutMs` pass. */
export function waitForEnd(
  events: TaskEvents,
  task: Task,
  timeoutMs: number,
  current: () => Promise<Task>,
): Promise<{ task: Task; timedOut: boolean }> {
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
