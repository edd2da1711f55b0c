import { linkSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { nowMs } from '../clock.js';
import { AppError, isErrno } from '../errors.js';
import { isSameProcessAlive, readStat } from '../tasks/proc.js';

export interface Lock {
  release(): void;
}

interface Holder {
  pid: number;
  start: number;
}

function readHolder(file: string): Holder | null {
  try {
    const [pid, start] = readFileSync(file, 'utf8').trim().split(' ').map(Number);
    return pid && start !== undefined && !Number.isNaN(start) ? { pid, start } : null;
  } catch {
    return null;
  }
}

/**
 * One daemon per state directory. The lock file holds "pid starttime"; a holder that is gone (or a
 * recycled pid with another start time) is stale and taken over. Takeover itself is guarded by a
 * second O_EXCL file so two daemons starting at once over a stale lock cannot both win.
 */
export function acquireLock(file: string): Lock {
  const me = `${process.pid} ${readStat(process.pid)?.startTicks ?? 0}\n`;
  const tmp = `${file}.${process.pid}`;
  writeFileSync(tmp, me, { mode: 0o600 });
  try {
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        linkSync(tmp, file); // atomic: fails if a lock exists
        return { release: () => releaseIfMine(file, me) };
      } catch (err) {
        if (!isErrno(err, 'EEXIST')) throw err;
      }
      const holder = readHolder(file);
      if (holder && holder.pid !== process.pid && isSameProcessAlive(holder.pid, holder.start)) {
        throw new AppError('daemon_running', `nightshift daemon is already running (pid ${holder.pid}; lock ${file})`);
      }
      takeOverStale(file, holder);
    }
    throw new AppError('daemon_running', `could not take the lock ${file}; another daemon is starting`);
  } finally {
    try {
      unlinkSync(tmp);
    } catch {
      // already gone
    }
  }
}

function takeOverStale(file: string, judged: Holder | null): void {
  const guard = `${file}.takeover`;
  try {
    writeFileSync(guard, String(process.pid), { flag: 'wx', mode: 0o600 });
  } catch (err) {
    if (!isErrno(err, 'EEXIST')) throw err;
    // A guard left by a daemon that died mid-takeover is ignored after a few seconds.
    try {
      if (nowMs() - statSync(guard).mtimeMs > 5000) unlinkSync(guard);
    } catch {
      // gone meanwhile
    }
    return;
  }
  try {
    const now = readHolder(file);
    // Only remove the lock we judged stale, not one a faster daemon just took.
    if (now?.pid === judged?.pid && now?.start === judged?.start) {
      renameSync(file, `${file}.stale`);
    }
  } catch {
    // someone else removed it
  } finally {
    unlinkSync(guard);
  }
}

function releaseIfMine(file: string, me: string): void {
  try {
    if (readFileSync(file, 'utf8') === me) unlinkSync(file);
  } catch {
    // nothing to release
  }
}
