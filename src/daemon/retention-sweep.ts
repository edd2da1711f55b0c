import type { Logger } from '../log.js';
import type { TaskManager } from '../tasks/manager.js';
import { expired } from '../tasks/retention.js';

const SWEEP_EVERY_MS = 3600 * 1000;

/** Removes finished tasks older than the retention period: now, then hourly. */
export function startRetention(tasks: TaskManager, retentionDays: number, log: Logger): () => void {
  const sweep = async () => {
    const ids = expired(await tasks.list({ all: true }), retentionDays);
    for (const id of ids) {
      await tasks.remove(id).catch((err: unknown) => log.warn({ task: id, err: (err as Error).message }, 'retention: remove failed'));
    }
    if (ids.length > 0) log.info({ removed: ids.length, retentionDays }, 'retention sweep');
  };
  const run = () => sweep().catch((err: unknown) => log.warn({ err: (err as Error).message }, 'retention sweep failed'));
  void run();
  const timer = setInterval(() => void run(), SWEEP_EVERY_MS);
  timer.unref();
  return () => clearInterval(timer);
}
