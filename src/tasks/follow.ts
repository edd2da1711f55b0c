import { watch, type FSWatcher } from 'node:fs';
import { readRange } from './output.js';

const CHUNK = 1024 * 1024;
/** Safety net for missed notifications (e.g. filesystems without inotify); not the main path. */
const SAFETY_POLL_MS = 2000;

export interface FollowOptions {
  dir: string;
  outputPath: string;
  offset: number;
  /** Resolves true once the task has ended (no more output can come). */
  isDone: () => Promise<boolean>;
  /** Subscribes to the task's end; returns an unsubscribe function. */
  onEnd: (cb: () => void) => () => void;
  /** Writes a chunk; resolves when the consumer can take more (backpressure). */
  write: (data: Buffer) => Promise<void>;
  signal: AbortSignal;
}

/**
 * Streams a task's output from `offset` until the task has ended and every byte was delivered.
 * Woken by inotify (fs.watch on the task directory, which also sees output.log being created) and by
 * the task's end; a slow poll covers lost notifications. Returns the offset reached.
 */
export async function follow(o: FollowOptions): Promise<number> {
  let offset = o.offset;
  let wake: (() => void) | null = null;
  let pending = true;
  const poke = () => {
    pending = true;
    wake?.();
  };
  let watcher: FSWatcher | undefined;
  try {
    watcher = watch(o.dir, { persistent: false }, poke);
    watcher.on('error', poke);
  } catch {
    watcher = undefined; // the poll still covers it
  }
  const timer = setInterval(poke, SAFETY_POLL_MS);
  const offEnd = o.onEnd(poke);
  const onAbort = () => poke();
  o.signal.addEventListener('abort', onAbort);
  try {
    while (!o.signal.aborted) {
      if (!pending) {
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
        wake = null;
        continue;
      }
      pending = false;
      // Ask whether the task is done *before* reading, so bytes written just before it ended are read.
      const done = await o.isDone();
      for (;;) {
        const chunk = await readRange(o.outputPath, offset, CHUNK);
        if (chunk.data.length === 0) break;
        await o.write(chunk.data);
        offset = chunk.nextOffset;
        if (o.signal.aborted) return offset;
      }
      if (done) return offset;
    }
    return offset;
  } finally {
    clearInterval(timer);
    offEnd();
    o.signal.removeEventListener('abort', onAbort);
    watcher?.close();
  }
}
