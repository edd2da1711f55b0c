/** A running task's attention (waiting at a prompt, or silent), as the stall monitor judges it: recorded, saved, announced. */
import type { Attention, Task } from '../api/tasks.js';
import type { Logger } from '../log.js';
import type { TaskEvents } from './events.js';
import type { TaskRegistry } from './registry.js';

export async function setAttention(
  d: { registry: TaskRegistry; events: TaskEvents; log: Logger },
  id: string,
  attention: Attention | undefined,
): Promise<void> {
  const e = d.registry.get(id);
  if (!e || e.task.state !== 'running') return;
  const { attention: _old, ...rest } = e.task;
  const task: Task = attention ? { ...rest, attention } : rest;
  d.registry.set(task, e.run);
  if (attention) {
    d.log.info({ task: id, kind: attention.kind }, 'task needs attention');
    d.events.emit('attention', task);
  }
  // A failed save is retried by the registry and marked on the task (see TaskRegistry.commit).
  await d.registry.commit().catch(() => undefined);
}
