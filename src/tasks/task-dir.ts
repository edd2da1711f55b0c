import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { diskFullError, isErrno } from '../errors.js';
import type { TaskContext } from './context.js';

/** Task directories' parents made by this process: a fan-out of N tasks makes it once, not N times. */
const made = new Set<string>();

/**
 * A new id with a directory of its own. An id handed out by a daemon that died before saving it
 * may have a directory (and a process writing there): such ids are skipped, never reused.
 */
export function claimTaskDir(c: TaskContext): { id: string; dir: string } {
  const { registry, tasksDir, log } = c;
  if (!made.has(tasksDir)) {
    mkdirSync(tasksDir, { recursive: true, mode: 0o700 });
    made.add(tasksDir);
  }
  for (;;) {
    const id = registry.allocateId();
    const dir = join(tasksDir, id);
    try {
      mkdirSync(dir, { mode: 0o700 });
      return { id, dir };
    } catch (err) {
      if (isErrno(err, 'ENOENT') && made.delete(tasksDir)) return claimTaskDir(c); // removed under us: made again
      if (!isErrno(err, 'EEXIST')) throw err;
      log.warn({ task: id }, 'task id skipped: its directory exists (left by a daemon that died)');
    }
  }
}

/**
 * A file of the task's directory (0600); on a full disk, an error naming ENOSPC and the file.
 * Synchronous: a few hundred bytes into the page cache take microseconds, where each step through
 * the thread pool costs a wake-up of the event loop (a millisecond and more on a loaded machine),
 * and two writes of the same file can never land out of order.
 */
export function writeTaskFile(dir: string, name: string, text: string): void {
  const path = join(dir, name);
  try {
    writeFileSync(path, text, { mode: 0o600 });
  } catch (err) {
    throw diskFullError(err, path);
  }
}
