/**
 * Running tasks whose end may never be reported: every task this daemon started (a wrapper killed
 * outright reports nothing) and the ones an earlier daemon left running (settled at start when they
 * ended meanwhile, else re-adopted: their reports went to a pipe that is gone). Polled once a second:
 * a live wrapper costs one read of /proc; a dead one is judged from its files.
 */
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { nowMs } from '../clock.js';
import { isErrno } from '../errors.js';
import { bootId, isSameProcessAlive } from '../sys/proc.js';
import type { TaskContext } from './context.js';
import { parseWrapper, type Entry, type RunInfo } from './model.js';
import { outputSize } from './output.js';
import type { StallMonitor } from './stall.js';

const POLL_MS = 1000;
/** A start of this daemon with no report from its wrapper after this long is claimed (see claimStart). */
const CLAIM_AFTER_MS = 30_000;
/** A started task's wrapper is looked at every this many polls (see `poll`). */
const OWN_EVERY = 10;
/** A `wrapper` file still without a wrapper's line after this long was never going to be written (see claimStart). */
const EMPTY_CLAIM_MS = 5000;

/** What records a task's end (the task runner). */
export interface Settler {
  /** `endedAt`: when the exit file was written, not when it was found. */
  settle(id: string, code: number, endedAt?: Date): Promise<void>;
  settleLost(id: string, reason: string, endedAt?: Date): Promise<void>;
}

export class Adoption {
  /** Watched tasks, with when an unreported start may be claimed. */
  private readonly watched = new Map<string, number>();
  private timer: NodeJS.Timeout | undefined;
  private ticks = 0;

  constructor(
    private readonly c: TaskContext,
    private readonly settler: Settler,
    private readonly stall: StallMonitor,
  ) {}

  /** Settles or re-adopts each running entry, then polls the watched ones until `stop`. */
  async start(running: Entry[]): Promise<void> {
    const adopted: string[] = [];
    for (const e of running) {
      if (!e.run) {
        await this.settler.settleLost(e.task.id, 'no process information was saved for it');
        continue;
      }
      if (await this.check(e.task.id, 0)) continue;
      adopted.push(e.task.id);
      this.watched.set(e.task.id, 0);
      // Its silence clock starts from its current output.
      this.stall.touch(e.task.id, await outputSize(e.task.outputPath));
    }
    if (adopted.length > 0) this.c.log.info({ tasks: adopted }, 're-adopted running tasks');
    // In the background: shutdown lets a poll under way record what it found (TaskContext.drained).
    this.timer = setInterval(() => this.c.background(this.poll(), 'running', 'checking running tasks failed'), POLL_MS);
    this.timer.unref();
  }

  /** A task this daemon just started. */
  track(id: string): void {
    this.watched.set(id, Date.now() + CLAIM_AFTER_MS);
  }

  /** The task has ended (by whatever path): no more polling for it. */
  forget(id: string): void {
    this.watched.delete(id);
  }

  stop(): void {
    clearInterval(this.timer);
  }

  private async poll(): Promise<void> {
    this.ticks += 1;
    for (const [id, claimAt] of [...this.watched]) {
      // A task this daemon started reports its end on the spawner's pipe; the poll is only for a
      // wrapper killed outright, so each is looked at every OWN_EVERY polls (500 idle tasks cost
      // 1.6 % of a core read every second). Adopted ones (their reports go nowhere) every poll.
      if (claimAt !== 0 && (this.ticks + Number(id)) % OWN_EVERY !== 0) continue;
      if (await this.check(id, claimAt)) this.watched.delete(id);
    }
  }

  /** Settles the task when it has ended; true when it has (or is no longer running). */
  private async check(id: string, claimAt: number): Promise<boolean> {
    const e = this.c.registry.get(id);
    if (!e?.run || e.task.state !== 'running') return true;
    let run = e.run;
    if (run.wrapperPid === 0) {
      if (Date.now() < claimAt) return false;
      const claim = claimStart(this.c.dir(id));
      if (claim.kind === 'starting') return false;
      if (claim.kind === 'claimed') {
        await this.settler.settleLost(id, 'it never started: its start request was not taken up before the daemon or the spawner went away');
        return true;
      }
      // Its wrapper, found from its file (its report never came), goes into the run info.
      run = { ...run, wrapperPid: claim.pid, wrapperStart: claim.start };
      this.c.registry.set(e.task, run);
    } else if (run.bootId === bootId() && isSameProcessAlive(run.wrapperPid, run.wrapperStart)) {
      return false;
    }
    const v = await judge(this.c.dir(id), run);
    if (v.kind === 'finished') await this.settler.settle(id, v.code, v.endedAt);
    else if (v.kind === 'lost') await this.settler.settleLost(id, v.reason, v.endedAt);
    // 'child-only': still running, but nobody is left to record how it ends; keep polling.
    return v.kind === 'finished' || v.kind === 'lost';
  }
}

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
 * never started, and never runs unseen. A file still empty is a wrapper writing it right now,
 * unless it has been empty for seconds.
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
  let age = 0;
  try {
    text = readFileSync(file, 'utf8');
    age = Date.now() - statSync(file).mtimeMs;
  } catch {
    return { kind: 'starting' };
  }
  const w = parseWrapper(text);
  if (w) return { kind: 'wrapper', pid: w.wrapperPid, start: w.wrapperStart };
  // A wrapper writes its line in the same breath as it creates the file: one left without it this
  // long is a write that failed or a wrapper killed in between, and that task never starts.
  return text === 'lost\n' || age > EMPTY_CLAIM_MS ? { kind: 'claimed' } : { kind: 'starting' };
}
