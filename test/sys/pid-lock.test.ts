import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../src/errors.js';
import { acquirePidLock, type PidLockHolder } from '../../src/sys/pid-lock.js';
import { bootId, readStat } from '../../src/sys/proc.js';

let dir: string;
let other: ChildProcess;
const held = (h: PidLockHolder | null) => new AppError('conflict', h ? `held by ${h.pid}` : 'lost the race');

beforeAll(() => {
  dir = mkdtempSync('/tmp/ns-pid-lock-');
  other = spawn('sleep', ['30'], { stdio: 'ignore' });
});
afterAll(() => {
  other.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

const liveHolder = () => ({ pid: other.pid as number, startTicks: readStat(other.pid as number)?.startTicks as number, boot: bootId() });

describe('pid lock', () => {
  it('is taken when free, names its holder, and is released only by its holder', async () => {
    const file = join(dir, 'free.lock');
    const lock = await acquirePidLock(file, { info: { what: 'test' }, held });
    expect(lock.stale).toBeNull();
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({ pid: process.pid, boot: bootId(), what: 'test' });
    lock.release();
    expect(existsSync(file)).toBe(false);
    // A release after someone else took the lock leaves theirs alone.
    const again = await acquirePidLock(file, { held });
    writeFileSync(file, JSON.stringify(liveHolder()));
    again.release();
    expect(existsSync(file)).toBe(true);
  });

  it('refuses while a live process holds it, in either format (JSON, or the older "pid starttime")', async () => {
    const file = join(dir, 'live.lock');
    const h = liveHolder();
    for (const text of [JSON.stringify({ ...h, dream: 'other' }), `${h.pid} ${h.startTicks}\n`]) {
      writeFileSync(file, text);
      await expect(acquirePidLock(file, { held })).rejects.toThrow(`held by ${h.pid}`);
      expect(readFileSync(file, 'utf8')).toBe(text);
    }
  });

  it('takes over a lock whose holder died, was recycled or is from another boot, and says whose it was', async () => {
    const file = join(dir, 'stale.lock');
    const h = liveHolder();
    for (const dead of [
      { pid: 999_999, startTicks: 1, boot: bootId() },
      { ...h, startTicks: h.startTicks + 1 }, // same pid, another process
      { ...h, boot: 'another-boot' },
    ]) {
      writeFileSync(file, JSON.stringify(dead));
      const lock = await acquirePidLock(file, { held });
      expect(lock.stale).toMatchObject(dead);
      expect(JSON.parse(readFileSync(`${file}.stale`, 'utf8'))).toMatchObject(dead);
      expect(JSON.parse(readFileSync(file, 'utf8')).pid).toBe(process.pid);
      lock.release();
    }
    writeFileSync(file, 'not a lock');
    const lock = await acquirePidLock(file, { held });
    expect(lock.stale).toMatchObject({ pid: 0 });
    lock.release();
  });
});
