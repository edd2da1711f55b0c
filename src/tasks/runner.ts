/**
 * The run-time cycle of tasks, in one place: a task is started (its start request handed to the
 * spawner, pid recorded, deadline armed), its end comes from its wrapper's report (or, for a wrapper
 * killed outright or an adopted task, from its exit file), it is settled into its final state and
 * followed by its next attempt when it failed with retries left, and then the queue is looked at
 * again (queue.ts decides; the runner skips what must be skipped and starts the rest).
 *
 * finish → schedule → run a pass → start: every step is a method here, so the cycle reads top to
 * bottom. Passes run one at a time, so two never hand out the same free slot.
 */
import { existsSync, statSync } from 'node:fs';
import { readFile, unlink } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { statusOf, type Outcome, type Task } from '../api/tasks.js';
import { now, nowMs } from '../clock.js';
import { bootId } from '../sys/proc.js';
import { Adoption, type Settler } from './adoption.js';
import { toArgv } from './argv.js';
import type { TaskContext } from './context.js';
import { Deadlines, type TimesOut } from './deadlines.js';
import { PendingSpawn, type RunInfo } from './model.js';
import { baseOf, endedTask, endedUnrun, interpretStatus, timeoutReason } from './outcome.js';
import { outputSize } from './output.js';
import { applyChild, awaitPid, signalRunning } from './process-group.js';
import { decide } from './queue.js';
import { queueRetry } from './retry.js';
import type { FailedSetup, Report } from './spawner/report.js';
import { startFile, writeStart } from './spawner/request.js';
import { Spawner, type ReportSink } from './spawner/spawner.js';
import { StallMonitor } from './stall.js';

/** A timed-out task gets this long after SIGTERM before SIGKILL. */
export const TIMEOUT_GRACE_MS = 2000;

const SETUP_FAILURES: Record<FailedSetup, string> = {
  start: 'the task wrapper could not read its start request',
  claim: 'the task wrapper could not write its wrapper file, which claims the task (is the disk full?)',
  output: 'the task wrapper could not open output.log for writing (is the disk full?)',
  fifo: 'the task wrapper could not create the stdin FIFO (is the disk full?)',
};

export class TaskRunner implements ReportSink, Settler, TimesOut {
  readonly stall: StallMonitor;
  readonly deadlines: Deadlines;
  private readonly adoption: Adoption;
  private readonly spawner: Spawner;
  /** Starts waiting for their wrapper's report, by task id. */
  private readonly waiting = new Map<string, (pid: number | undefined) => void>();
  private order: Promise<void> = Promise.resolve();
  /** The queue pass running now, and the one queued behind it (not started yet). */
  private pass: Promise<void> = Promise.resolve();
  private nextPass: Promise<void> | null = null;
  /** Environments of tasks queued by this daemon, kept so their start need not read spawn.json back. */
  private readonly envs = new Map<string, Record<string, string>>();
  /** The next time a queued attempt's delay (`--retry-delay`) ends. */
  private wakeTimer: NodeJS.Timeout | undefined;

  constructor(private readonly c: TaskContext) {
    this.stall = new StallMonitor(c);
    this.deadlines = new Deadlines(this);
    this.adoption = new Adoption(c, this, this.stall);
    this.spawner = new Spawner(this, c.log);
  }

  /** Settles or re-adopts tasks left running by an earlier daemon, then starts the queue and the stall checks. */
  async startUp(): Promise<void> {
    const running = this.c.registry.list().filter((e) => e.task.state === 'running');
    await this.adoption.start(running);
    for (const { task } of running) this.rearm(task.id);
    await this.schedule();
    this.stall.startChecks();
  }

  /** A paused task's deadline waits; a resumed one's moves by the time it was paused. */
  rearm(id: string): void {
    const e = this.c.registry.get(id);
    if (e) this.deadlines.armFor(e);
  }

  stop(): void {
    this.spawner.stop();
    this.adoption.stop();
    this.deadlines.stop();
    this.stall.stop();
    clearTimeout(this.wakeTimer);
  }

  // ---- start ---------------------------------------------------------------------------------

  /**
   * Writes the start request and hands it to the spawner, then waits for the wrapper to name the
   * command's pid (a fork away): the task is reported started, to the caller of `run` and in the
   * `started` event, with that pid, the one `show` and `ps` print. The task is registered as running
   * before the spawner is asked (with no wrapper pid yet), so a daemon that dies right now still
   * takes it back. The caller saves the registry.
   */
  async start(task: Task, env: Record<string, string>, fromQueue = false): Promise<void> {
    const { registry, log } = this.c;
    const config = this.c.config;
    const dir = this.c.dir(task.id);
    try {
      writeStart({ dir, command: toArgv(task.command), cwd: task.cwd, env, stdin: task.stdin === 'open', capBytes: config.outputCapBytes });
    } catch (err) {
      this.failToStart(task, (err as Error).message);
      return;
    }
    const run: RunInfo = { wrapperPid: 0, wrapperStart: 0, bootId: bootId(), capBytes: config.outputCapBytes };
    const startedAt = now().toISOString();
    registry.set({ ...baseOf(task), state: 'running', startedAt }, run);
    if (fromQueue && !(task.retries ?? 0)) unlink(join(dir, 'spawn.json')).catch(() => undefined);
    this.stall.touch(task.id, 0);
    if (task.timeoutSeconds !== undefined) this.deadlines.arm(task.id, startedAt, task.timeoutSeconds);
    const reported = new Promise<number | undefined>((resolve) => this.waiting.set(task.id, resolve));
    this.spawner.start(dir);
    // A started task is polled for a wrapper that ends without a word (killed outright).
    this.adoption.track(task.id);
    // `started` events go out in the order the starts were asked for (the queue's, by id), whatever
    // order the wrappers' reports come back in.
    const turn = this.order.then(() => awaitPid(reported));
    this.order = turn.then(
      () => undefined,
      () => undefined,
    );
    const pid = await turn;
    this.waiting.delete(task.id);
    const running = registry.get(task.id)?.task;
    if (running?.state !== 'running') return; // it failed to start, or has already ended
    log.info({ task: task.id, commandPid: pid }, 'task started');
    this.c.events.emit('started', running);
  }

  /** What a wrapper reports through the spawner; a task already settled another way ignores it. */
  onReport(r: Report): void {
    const id = basename(r.dir);
    if (r.dir !== this.c.dir(id)) return;
    if (r.kind !== 'exited') unlink(startFile(r.dir)).catch(() => undefined); // it holds the environment
    switch (r.kind) {
      case 'started': {
        const pid = applyChild(this.c, id, r.childPid, { pid: r.wrapperPid, start: r.wrapperStart });
        const wait = this.waiting.get(id);
        if (wait) wait(pid);
        else if (pid !== undefined) this.c.background(this.c.persist(), id, 'saving a late start failed');
        return;
      }
      case 'exited':
        this.c.background(this.settle(id, r.code), id, 'recording the end of a task failed');
        return;
      case 'duplicate':
        // Sent again after the spawner died: the first wrapper has it; its report follows on the old pipe.
        this.c.log.info({ task: id }, 'task start was already taken by an earlier wrapper');
        return;
      case 'failed': {
        const e = this.c.registry.get(id);
        // A start sent again after the spawner died, to a task its first wrapper has already taken:
        // that wrapper's report (or the poll) settles it, never this one.
        if (e?.task.state !== 'running' || (e.run?.wrapperPid ?? 0) !== 0 || takenByAnother(r.dir, r.what)) return;
        this.failToStart(e.task, SETUP_FAILURES[r.what]);
        this.waiting.get(id)?.(undefined);
        this.c.background(this.persistAndSchedule(), id, 'saving a failed start failed');
        return;
      }
    }
  }

  private async persistAndSchedule(): Promise<void> {
    await this.c.persist();
    await this.schedule();
  }

  private failToStart(task: Task, error: string): void {
    const failed = endedUnrun(task, { kind: 'failed_to_start', error });
    this.c.registry.set(failed);
    this.stall.forget(task.id);
    this.deadlines.forget(task.id);
    this.c.log.warn({ task: task.id, err: error }, 'task failed to start');
    this.c.events.emit('exited', failed);
  }

  // ---- end -----------------------------------------------------------------------------------

  /** `endedAt`: when the task ended, if not now (an adopted task's exit file was written earlier). */
  async settle(id: string, code: number, endedAt?: Date): Promise<void> {
    const e = this.c.registry.get(id);
    if (!e || e.task.state !== 'running' || !e.run) return;
    const ending = interpretStatus(code, e.run.capBytes);
    const final: Outcome = e.run.timedOutAt
      ? { kind: 'timed_out', reason: timeoutReason(e.task), ...(ending.kind === 'killed' ? { signal: ending.signal } : {}) }
      : ending;
    await this.finish(endedTask(e.task, final, await outputSize(e.task.outputPath), endedAt));
  }

  async settleLost(id: string, reason: string, endedAt?: Date): Promise<void> {
    const e = this.c.registry.get(id);
    if (!e || e.task.state !== 'running') return;
    await this.finish(endedTask(e.task, { kind: 'lost', reason }, await outputSize(e.task.outputPath), endedAt));
  }

  /** Records a task's end: its next attempt queued, saved, announced, and the queue moved on. */
  async finish(ended: Task): Promise<void> {
    const { registry, log, events } = this.c;
    const next = queueRetry(this.c, ended);
    const task: Task = next ? { ...ended, retriedBy: next.id } : ended;
    registry.set(task);
    if (next) registry.set(next);
    // Its environment, if it was kept for a retry, has moved on (or is no longer needed).
    if (task.retries) unlink(join(this.c.dir(task.id), 'spawn.json')).catch(() => undefined);
    this.adoption.forget(task.id);
    this.stall.forget(task.id);
    this.deadlines.forget(task.id);
    await this.c.persist();
    log.info({ task: task.id, status: statusOf(task) }, 'task ended');
    events.emit('exited', task);
    if (next) events.emit('queued', next);
    await this.schedule();
  }

  /** The deadline of `run --timeout` passed: marked (so its end is `timed_out`), SIGTERM, then SIGKILL after a grace. */
  timeOut(id: string): void {
    this.c.background(this.timeOutNow(id), id, 'timing out a task failed');
  }

  private async timeOutNow(id: string): Promise<void> {
    const e = this.c.registry.get(id);
    if (!e || e.task.state !== 'running' || !e.run || e.run.timedOutAt) return;
    this.c.registry.set(e.task, { ...e.run, timedOutAt: now().toISOString() });
    await this.c.persist();
    this.c.log.info({ task: id, seconds: e.task.timeoutSeconds }, 'task timed out');
    await signalRunning(this.c, e, 'SIGTERM');
    const timer = setTimeout(() => {
      const cur = this.c.registry.get(id);
      if (cur?.task.state === 'running') {
        signalRunning(this.c, cur, 'SIGKILL').catch((err: unknown) => this.c.log.warn({ task: id, err }, 'SIGKILL after the timeout failed'));
      }
    }, TIMEOUT_GRACE_MS);
    timer.unref();
  }

  // ---- what starts next ----------------------------------------------------------------------

  /**
   * A pass after the one running now. Calls that come while a pass waits for its turn share it: the
   * ends of a burst of tasks cost one look at the queue, not one each.
   */
  schedule(): Promise<void> {
    if (this.nextPass) return this.nextPass;
    const pass = this.pass.then(() => {
      this.nextPass = null;
      return this.runPass();
    });
    this.nextPass = pass;
    this.pass = pass.catch(() => undefined);
    return pass;
  }

  /** Keeps a queued task's environment in memory for its start (spawn.json stays for a restart). */
  remember(id: string, env: Record<string, string>): void {
    this.envs.set(id, env);
  }

  /** Skips the queued tasks whose dependencies failed and starts those with room in their group, from their saved spec. */
  private async runPass(): Promise<void> {
    const { registry, events } = this.c;
    // Environments of tasks that left the queue another way (killed, removed) are dropped.
    for (const id of this.envs.keys()) if (registry.get(id)?.task.state !== 'queued') this.envs.delete(id);
    const { start, skip, wakeAt } = decide(registry.list(), (g) => this.c.groups.limit(g), nowMs());
    this.wakeAt(wakeAt);
    for (const { task, reason } of skip) {
      const stdin = task.stdin === 'none' ? ('none' as const) : ('closed' as const);
      const skipped: Task = { ...endedUnrun(task, { kind: 'skipped', reason }), stdin };
      await unlink(join(this.c.dir(task.id), 'spawn.json')).catch(() => undefined);
      registry.set(skipped);
      this.c.log.info({ task: task.id, reason }, 'task skipped');
      events.emit('exited', skipped);
    }
    // The specs are read together and the tasks started together: each start registers its task as
    // running before its first await, and waiting for one wrapper's pid before forking the next made
    // a wide DAG layer start one task per fork round trip.
    const specs = await Promise.all(start.map((task) => this.spec(task.id)));
    const starts: Promise<void>[] = [];
    start.forEach((task, i) => {
      // It may have been killed while the spec was read.
      if (registry.get(task.id)?.task.state !== 'queued') return;
      const env = specs[i] ?? null;
      if (env === null) {
        const failed = endedUnrun(task, { kind: 'failed_to_start', error: 'its saved start spec is missing or unreadable' });
        registry.set(failed);
        events.emit('exited', failed);
      } else {
        starts.push(this.start(task, env, true));
      }
    });
    await Promise.all(starts);
    if (start.length + skip.length > 0) await this.c.persist();
  }

  /** The saved environment of a queued task (null when missing or unreadable); remembered ones are not read again. */
  private async spec(id: string): Promise<Record<string, string> | null> {
    const kept = this.envs.get(id);
    if (kept) {
      this.envs.delete(id);
      return kept;
    }
    const raw = await readFile(join(this.c.dir(id), 'spawn.json'), 'utf8').catch(() => null);
    const spec = raw === null ? null : PendingSpawn.safeParse(safeJson(raw));
    return spec?.success ? spec.data.env : null;
  }

  private wakeAt(at: number | undefined): void {
    clearTimeout(this.wakeTimer);
    if (at === undefined) return;
    this.wakeTimer = setTimeout(() => this.c.background(this.schedule(), '-', 'starting queued tasks failed'), Math.max(0, at - nowMs()) + 5);
    this.wakeTimer.unref();
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * Whether a wrapper's failed setup may be another wrapper's task: one that finds no start request
 * (the first wrapper's report had it removed), or one whose claim failed on a file that holds a
 * claim. A failed output.log or FIFO comes only from the wrapper that claimed the task.
 */
function takenByAnother(dir: string, what: FailedSetup): boolean {
  const file = join(dir, 'wrapper');
  if (what === 'start') return existsSync(file);
  if (what !== 'claim') return false;
  try {
    return statSync(file).size > 0;
  } catch {
    return false;
  }
}
