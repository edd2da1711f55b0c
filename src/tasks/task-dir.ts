import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { isErrno } from '../errors.js';
import type { Logger } from '../log.js';
import type { TaskRegistry } from './registry.js';

/**
 * A new id with a directory of its own. An id handed out by a daemon that died before saving it
 * may have a directory (and a process writing there): such ids are skipped, never reused.
 */
export function claimTaskDir(registry: TaskRegistry, tasksDir: string, log: Logger): { id: string; dir: string } {
  mkdirSync(tasksDir, { recursive: true, mode: 0o700 });
  for (;;) {
    const id = registry.allocateId();
    const dir = join(tasksDir, id);
    try {
      mkdirSync(dir, { mode: 0o700 });
      return { id, dir };
    } catch (err) {
      if (!isErrno(err, 'EEXIST')) throw err;
      log.warn({ task: id }, 'task id skipped: its directory exists (left by a daemon that died)');
    }
  }
}
