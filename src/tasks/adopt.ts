import { readFileSync, writeFileSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { nowMs } from '../clock.js';
import type { RunInfo } from './model.js';
import { isErrno } from '../errors.js';
import { bootId, isSameProcessAlive } from '../sys/proc.js';

/** `endedAt`: when the wrapper wrote its exit file (its mtime), on the daemon's clock. */
export type Verdict =
  { kind: 'finished'; code: number; endedAt: Date } | { kind: 'wrapper-alive' } | { kind: 'child-only' } | { kind: 'lost'; reason: string; endedAt?: Date };

/** What the wrapper left in its exit file: the status (with its newline), else what text there is; null when there is no file. */
async function readExit(dir: string): Promise<{ code: number | null; text: string; endedAt: Date } | null> {
  const file = join(dir, 'exit');
  try {
    const [text, st] = await Promise.all([readFile(file, 'utf8'), stat(file)]);
    // Written in place by one echo: a number counts only with its newline.
    const m = /^([0-9]+)\n$/.exec(text);
    // The mtime is on the real clock; the daemon's may be moved (tests): keep the file's age.
    return { code: m ? Number(m[1]) : null, text, endedAt: new Date(nowMs() - Math.max(0, Date.now() - st.mtimeMs)) };
  } catch {
    return null;
  }
}

export async function readExitCode(dir: string): Promise<number | null> {
  return (await readExit(dir))?.code ?? null;
}

/**
 * Where a task that was running when the daemon went away stands now. Processes are matched by pid
 * and start time, so a recycled pid never passes for the task.
 */
export async function judge(dir: string, run: RunInfo): Promise<Verdict> {
  const exit = await readExit(dir);
  if (exit && exit.code !== null) return { kind: 'finished', code: exit.code, endedAt: exit.endedAt };
  if (run.bootId !== bootId()) return { kind: 'lost', reason: 'the machine rebooted while the task ran' };
  if (isSameProcessAlive(run.wrapperPid, run.wrapperStart)) return { kind: 'wrapper-alive' };
  // The wrapper may have written the status and exited between the two checks above.
  const late = await readExit(dir);
  if (late && late.code !== null) return { kind: 'finished', code: late.code, endedAt: late.endedAt };
  if (run.childPid !== undefined && run.childStart !== undefined && isSameProcessAlive(run.childPid, run.childStart)) {
    return { kind: 'child-only' };
  }
  // The wrapper got as far as opening its exit file and is gone: the write itself failed.
  if (late) {
    const left = late.text === '' ? 'is empty' : `holds only ${JSON.stringify(late.text)}`;
    return {
      kind: 'lost',
      reason: `the task ended, but its exit status could not be written: ${join(dir, 'exit')} ${left} (most likely the disk was full); the exit code is unknown`,
      endedAt: late.endedAt,
    };
  }
  return { kind: 'lost', reason: 'the task wrapper was killed, so its exit status was never recorded' };
}

export type Claim = { kind: 'wrapper'; pid: number; start: number } | { kind: 'claimed' } | { kind: 'starting' };

/**
 * A task whose wrapper never reported: the `wrapper` file says which wrapper took it. With none
 * there, the daemon creates it (exclusively, as a wrapper would), so a start still on its way (a
 * spawner's backlog from before a crash) finds the task taken and never runs it: the task is lost,
 * never started, and never runs unseen. A file still empty is a wrapper writing it right now.
 */
export function claimStart(dir: string): Claim {
  const file = join(dir, 'wrapper');
  try {
    writeFileSync(file, 'lost\n', { flag: 'wx', mode: 0o600 });
    return { kind: 'claimed' };
  } catch (err) {
    if (!isErrno(err, 'EEXIST')) return { kind: 'claimed' };
  }
  let text = '';
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return { kind: 'starting' };
  }
  const w = parseWrapper(text);
  if (w) return { kind: 'wrapper', pid: w.wrapperPid, start: w.wrapperStart };
  return text === 'lost\n' ? { kind: 'claimed' } : { kind: 'starting' };
}

/** The `wrapper` file's line (pid, start ticks, boot id, output cap in 512-byte blocks) as run info. */
export function parseWrapper(text: string): Pick<RunInfo, 'wrapperPid' | 'wrapperStart' | 'bootId' | 'capBytes'> | null {
  const m = /^([0-9]+) ([0-9]+) (\S+) ([0-9]+)\n$/.exec(text);
  return m ? { wrapperPid: Number(m[1]), wrapperStart: Number(m[2]), bootId: m[3] as string, capBytes: Number(m[4]) * 512 } : null;
}
