/**
 * The dream lock: a file naming its holder by pid, start time and boot, so it survives daemon
 * restarts (two dreams never overlap) while a holder that died (a crashed dream, a reboot) is
 * recognised as stale and never blocks the next one.
 */
import { readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { AppError, isErrno } from '../errors.js';
import { bootId, isSameProcessAlive, readStat } from '../tasks/proc.js';

interface Holder {
  pid: number;
  startTicks: number;
  boot: string;
  since: string;
  dream: string;
}

export interface DreamLock {
  release(): void;
  /** True when the lock replaced a stale one left by a holder that died. */
  recoveredStale: Holder | null;
}

function readHolder(file: string): Holder | null {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as Holder;
  } catch (err) {
    if (isErrno(err, 'ENOENT')) return null;
    return { pid: 0, startTicks: 0, boot: '', since: '?', dream: '?' }; // unreadable: stale
  }
}

const alive = (h: Holder) => h.boot === bootId() && h.pid > 0 && isSameProcessAlive(h.pid, h.startTicks);

export function acquireDreamLock(file: string, dream: string, since: string): DreamLock {
  const me: Holder = { pid: process.pid, startTicks: readStat(process.pid)?.startTicks ?? 0, boot: bootId(), since, dream };
  const text = JSON.stringify(me);
  let stale: Holder | null = null;
  try {
    writeFileSync(file, text, { flag: 'wx', mode: 0o600 });
  } catch (err) {
    if (!isErrno(err, 'EEXIST')) throw err;
    const holder = readHolder(file);
    if (holder && alive(holder)) {
      throw new AppError('conflict', `a dream is already running (${holder.dream}, pid ${holder.pid}, since ${holder.since})`);
    }
    // Replace atomically: whoever renames last wins, and checks below that it did.
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, text, { mode: 0o600 });
    renameSync(tmp, file);
    stale = holder;
  }
  const check = readHolder(file);
  if (!check || check.pid !== me.pid || check.dream !== dream) throw new AppError('conflict', 'another dream took the lock first');
  return {
    recoveredStale: stale,
    release() {
      const h = readHolder(file);
      if (h && h.pid === me.pid && h.dream === dream) {
        try {
          unlinkSync(file);
        } catch (err) {
          if (!isErrno(err, 'ENOENT')) throw err;
        }
      }
    },
  };
}
