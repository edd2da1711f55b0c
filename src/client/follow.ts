import { isFinished } from '../api/task-status.js';
import { AppError } from '../errors.js';
import { retry } from '../sys/retry.js';
import type { Caller } from './caller.js';

const RECONNECT_FOR_MS = 30_000;

const transient = (err: unknown) => err instanceof AppError && (err.code === 'connection_lost' || err.code === 'daemon_unavailable');

/**
 * Streams a task's output from `offset` to `onData` until the task ends. If the daemon restarts
 * meanwhile, it reconnects and resumes from the byte it reached, so nothing is delivered twice or skipped.
 */
export async function followOutput(call: Caller, id: string, offset: number, onData: (chunk: Buffer) => void): Promise<void> {
  let at = offset;
  for (;;) {
    const done = await retry(
      async () => {
        // Count delivered bytes as they arrive: a stream cut mid-way must resume exactly there.
        await call((c) =>
          c.follow(id, at, (chunk) => {
            at += chunk.length;
            onData(chunk);
          }),
        );
        const task = await call((c) => c.get(id), true);
        return isFinished(task) && at >= task.outputBytes;
      },
      { retryIf: transient, delayMs: 200, forMs: RECONNECT_FOR_MS },
    );
    if (done) return;
  }
}
