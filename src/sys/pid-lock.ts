/**
 * A lock file naming its holder by pid, process start time and boot, so a lock outlives restarts
 * of its owner's kind while a holder that died (a crash, a reboot, a recycled pid) is recognised as
 * stale and taken over. The daemon's single-instance lock and the dream lock are both this.
 */
import { linkSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { nowMs } from '../clock.js';
import { type AppError, diskFullError, isErrno } from '../errors.js';
import { bootId, isSameProcessAlive, readStat } from './proc.js';
import { retry } from './retry.js';

export interface PidLockHolder {
  pid: number;
  startTicks: number;
  boot: string;
  /** What the holder said about itself (a dream's id and start, say). */
  [info: string]: unknown;
}

export interface PidLock {
  release(): void;
  /** The dead holder whose lock was taken over, if any. */
  stale: PidLockHolder | null;
}

export interface PidLockOptions {
  /** Written into the lock beside pid, start time and boot. */
  info?: Record<string, string>;
  /** The error for a lock held by a live process, or (null) lost to another taker in a race. */
  held: (holder: PidLockHolder | null) => AppError;
}

const UNREADABLE: PidLockHolder = { pid: 0, startTicks: 0, boot: '' };

function readHolder(file: string): PidLockHolder | null {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    return isErrno(err, 'ENOENT') ? null : UNREADABLE;
  }
  // Daemons before the shared lock wrote "pid starttime" (and no boot): taken as this boot's.
  const legacy = /^([0-9]+) ([0-9]+)\s*$/.exec(text);
  if (legacy) return { pid: Number(legacy[1]), startTicks: Number(legacy[2]), boot: bootId() };
  try {
    const h = JSON.parse(text) as Partial<PidLockHolder> | null;
    return typeof h?.pid === 'number' && typeof h.startTicks === 'number' && typeof h.boot === 'string' ? (h as PidLockHolder) : UNREADABLE;
  } catch {
    return UNREADABLE;
  }
}

const alive = (h: PidLockHolder) => h.pid > 0 && h.pid !== process.pid && h.boot === bootId() && isSameProcessAlive(h.pid, h.startTicks);
const same = (a: PidLockHolder | null, b: PidLockHolder | null) => a?.pid === b?.pid && a?.startTicks === b?.startTicks && a?.boot === b?.boot;

/** Another taker moved first; try again. */
class Contended extends Error {}

/**
 * Takes the lock: link(2) of a prepared file is atomic and fails when a lock exists. A stale lock
 * is moved aside (to `<file>.stale`) under a second O_EXCL guard file, so two takers starting at
 * once over one stale lock cannot both win.
 */
export async function acquirePidLock(file: string, o: PidLockOptions): Promise<PidLock> {
  const me = `${JSON.stringify({ pid: process.pid, startTicks: readStat(process.pid)?.startTicks ?? 0, boot: bootId(), ...o.info })}\n`;
  const tmp = `${file}.${process.pid}`;
  let stale: PidLockHolder | null = null;
  writeOrRemove(tmp, me, 'w', file);
  try {
    await retry(
      async () => {
        try {
          linkSync(tmp, file);
          return;
        } catch (err) {
          if (!isErrno(err, 'EEXIST')) throw err;
        }
        const holder = readHolder(file);
        if (holder && alive(holder)) throw o.held(holder);
        if (takeOverStale(file, holder)) stale = holder;
        throw new Contended();
      },
      { retryIf: (err) => err instanceof Contended, delayMs: 0, attempts: 3 },
    );
  } catch (err) {
    throw err instanceof Contended ? o.held(null) : err;
  } finally {
    try {
      unlinkSync(tmp);
    } catch {
      // already gone
    }
  }
  return { stale, release: () => releaseIfMine(file, me) };
}

/** Moves the lock aside if it is still the one judged stale; true when this call did. */
function takeOverStale(file: string, judged: PidLockHolder | null): boolean {
  const guard = `${file}.takeover`;
  try {
    writeOrRemove(guard, String(process.pid), 'wx', file);
  } catch (err) {
    if (!isErrno(err, 'EEXIST')) throw err;
    // A guard left by a taker that died mid-takeover is ignored after a few seconds.
    try {
      if (nowMs() - statSync(guard).mtimeMs > 5000) unlinkSync(guard);
    } catch {
      // gone meanwhile
    }
    return false;
  }
  try {
    // Only the lock we judged stale, never one a faster taker has just made.
    if (!same(readHolder(file), judged)) return false;
    renameSync(file, `${file}.stale`);
    return true;
  } catch {
    return false; // someone else moved it
  } finally {
    unlinkSync(guard);
  }
}

/**
 * Writes a file of the lock's; a write that fails (a full disk creates the file, then has no room
 * for its content) removes what it created, so no empty file is left beside the lock.
 */
function writeOrRemove(path: string, text: string, flag: 'w' | 'wx', lock: string): void {
  try {
    writeFileSync(path, text, { flag, mode: 0o600 });
  } catch (err) {
    if (isErrno(err, 'EEXIST')) throw err;
    try {
      unlinkSync(path);
    } catch {
      // never created
    }
    throw diskFullError(err, lock);
  }
}

function releaseIfMine(file: string, me: string): void {
  try {
    if (readFileSync(file, 'utf8') === me) unlinkSync(file);
  } catch {
    // nothing to release
  }
}
