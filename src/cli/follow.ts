import { setTimeout as sleep } from 'node:timers/promises';
import { isFinished } from '../api/tasks.js';
import { AppError } from '../errors.js';
import { withDaemon } from './connect.js';

const RECONNECT_FOR_MS = 30_000;

/**
 * Streams output from `offset` to stdout until the task ends. If the daemon restarts meanwhile, it
 * reconnects and resumes from the byte it reached, so nothing is shown twice or skipped.
 */
export async function followOutput(id: string, offset: number): Promise<void> {
  let at = offset;
  let lostSince = 0;
  for (;;) {
    try {
      // Count delivered bytes as they arrive: a stream cut mid-way must resume exactly there.
      await withDaemon((c) =>
        c.follow(id, at, (chunk) => {
          at += chunk.length;
          process.stdout.write(chunk);
        }),
      );
      const task = await withDaemon((c) => c.get(id));
      if (isFinished(task) && at >= task.outputBytes) return;
      lostSince = 0;
    } catch (err) {
      const transient = err instanceof AppError && (err.code === 'connection_lost' || err.code === 'daemon_unavailable');
      if (!transient) throw err;
      lostSince ||= Date.now();
      if (Date.now() - lostSince > RECONNECT_FOR_MS) throw err;
      await sleep(200);
    }
  }
}
