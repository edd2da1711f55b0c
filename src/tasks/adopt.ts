import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { RunInfo } from './model.js';
import { bootId, isSameProcessAlive } from '../sys/proc.js';

export type Verdict = { kind: 'finished'; code: number } | { kind: 'wrapper-alive' } | { kind: 'child-only' } | { kind: 'lost'; reason: string };

export async function readExitCode(dir: string): Promise<number | null> {
  try {
    // Written in place by one echo: a number counts only with its newline.
    const m = /^([0-9]+)\n$/.exec(await readFile(join(dir, 'exit'), 'utf8'));
    return m ? Number(m[1]) : null;
  } catch {
    return null;
  }
}

/**
 * Where a task that was running when the daemon went away stands now. Processes are matched by pid
 * and start time, so a recycled pid never passes for the task.
 */
export async function judge(dir: string, run: RunInfo): Promise<Verdict> {
  const code = await readExitCode(dir);
  if (code !== null) return { kind: 'finished', code };
  if (run.bootId !== bootId()) return { kind: 'lost', reason: 'the machine rebooted while the task ran' };
  if (isSameProcessAlive(run.wrapperPid, run.wrapperStart)) return { kind: 'wrapper-alive' };
  // The wrapper may have written the status and exited between the two checks above.
  const late = await readExitCode(dir);
  if (late !== null) return { kind: 'finished', code: late };
  if (run.childPid !== undefined && run.childStart !== undefined && isSameProcessAlive(run.childPid, run.childStart)) {
    return { kind: 'child-only' };
  }
  return { kind: 'lost', reason: 'the task wrapper was killed, so its exit status was never recorded' };
}
