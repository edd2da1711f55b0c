/**
 * Running tasks whose end may never be reported: every task this daemon started (a wrapper killed
 * outright reports nothing) and the ones an earlier daemon left running (settled at start when they
 * ended meanwhile, else re-adopted: their reports went to a pipe that is gone). Polled once a second:
 * a live wrapper costs one read of /proc; a dead one is judged from its files.
 */
import type { Logger } from '../log.js';
import { bootId, isSameProcessAlive } from '../sys/proc.js';
import { claimStart, judge } from './adopt.js';
import type { Entry } from './model.js';

const POLL_MS = 1000;
/** A start of this daemon with no report from its wrapper after this long is claimed (see claimStart). */
const CLAIM_AFTER_MS = 30_000;
/** A started task's wrapper is looked at every this many polls (see `poll`). */
const OWN_EVERY = 10;

export interface AdoptionContext {
  log: Logger;
  dir(id: string): string;
  entry(id: string): Entry | undefined;
  /** `endedAt`: when the exit file was written, not when it was found. */
  settle(id: string, code: number, endedAt: Date): Promise<void>;
  settleLost(id: string, reason: string, endedAt?: Date): Promise<void>;
  /** The wrapper found from its file (its report never came): its pid goes into the run info. */
  learnWrapper(id: string, pid: number, start: number): void;
  /** A re-adopted task: its silence clock starts from its current output. */
  watch(entry: Entry): Promise<void>;
}

export class Adoption {
  /** Watched tasks, with when an unreported start may be claimed. */
  private readonly watched = new Map<string, number>();
  private timer: NodeJS.Timeout | undefined;
  private ticks = 0;

  constructor(private readonly c: AdoptionContext) {}

  /** Settles or re-adopts each running entry, then polls the watched ones until `stop`. */
  async start(running: Entry[]): Promise<void> {
    const adopted: string[] = [];
    for (const e of running) {
      if (!e.run) {
        await this.c.settleLost(e.task.id, 'no process information was saved for it');
        continue;
      }
      if (await this.check(e.task.id, 0)) continue;
      adopted.push(e.task.id);
      this.watched.set(e.task.id, 0);
      await this.c.watch(e);
    }
    if (adopted.length > 0) this.c.log.info({ tasks: adopted }, 're-adopted running tasks');
    this.timer = setInterval(() => {
      this.poll().catch((err: unknown) => this.c.log.error({ err }, 'checking running tasks failed'));
    }, POLL_MS);
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
    const e = this.c.entry(id);
    if (!e?.run || e.task.state !== 'running') return true;
    let run = e.run;
    if (run.wrapperPid === 0) {
      if (Date.now() < claimAt) return false;
      const claim = claimStart(this.c.dir(id));
      if (claim.kind === 'starting') return false;
      if (claim.kind === 'claimed') {
        await this.c.settleLost(id, 'it never started: its start request was not taken up before the daemon or the spawner went away');
        return true;
      }
      this.c.learnWrapper(id, claim.pid, claim.start);
      run = { ...run, wrapperPid: claim.pid, wrapperStart: claim.start };
    } else if (run.bootId === bootId() && isSameProcessAlive(run.wrapperPid, run.wrapperStart)) {
      return false;
    }
    const v = await judge(this.c.dir(id), run);
    if (v.kind === 'finished') await this.c.settle(id, v.code, v.endedAt);
    else if (v.kind === 'lost') await this.c.settleLost(id, v.reason, v.endedAt);
    // 'child-only': still running, but nobody is left to record how it ends; keep polling.
    return v.kind === 'finished' || v.kind === 'lost';
  }
}
