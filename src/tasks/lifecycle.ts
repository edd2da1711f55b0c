/**
 * A task's life after it is created: started (its start request handed to the spawner, pid
 * recorded, deadline armed), its end as its wrapper reports it (or from an adopted task's exit
 * file), settled into its final state, and followed by its next attempt when it failed with
 * retries left.
 */
import { existsSync } from 'node:fs';
import { unlink } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { statusOf, type Outcome, type Task } from '../api/tasks.js';
import { now } from '../clock.js';
import type { Config } from '../config.js';
import type { Logger } from '../log.js';
import { bootId } from '../sys/proc.js';
import { toArgv } from './argv.js';
import { applyChild, awaitPid, type ChildContext } from './child-pid.js';
import type { Deadlines } from './deadlines.js';
import type { TaskEvents } from './events.js';
import type { RunInfo } from './model.js';
import { baseOf, endedTask, endedUnrun, interpretStatus } from './outcome.js';
import { outputSize } from './output.js';
import { timeoutReason } from './pause.js';
import type { TaskRegistry } from './registry.js';
import { queueRetry } from './retry.js';
import type { Report } from './spawner/report.js';
import { startFile, writeStart } from './spawner/request.js';
import type { Spawner } from './spawner/spawner.js';
import type { StallMonitor } from './stall-monitor.js';

export interface LifecycleContext {
  registry: TaskRegistry;
  log: Logger;
  events: TaskEvents;
  tasksDir: string;
  /** Read at each start: a reloaded config applies to the tasks started after it. */
  config(): Config;
  stall: StallMonitor;
  deadlines: Deadlines;
  children: ChildContext;
  spawner: Spawner;
  /** A started task is polled for a wrapper that ends without a word (killed outright). */
  track(id: string): void;
  /** A task that ended is no longer polled. */
  forgetAdopted(id: string): void;
  /** Starts what the queue can start now (after an end). */
  schedule(): Promise<void>;
  persist(): Promise<void>;
  /** Runs `work` in the background: a failure is logged, never left unobserved. */
  background(work: Promise<unknown>, task: string, what: string): void;
}

const SETUP_FAILURES: Record<Extract<Report, { kind: 'failed' }>['what'], string> = {
  start: 'the task wrapper could not read its start request',
  output: 'the task wrapper could not open output.log for writing (is the disk full?)',
  fifo: 'the task wrapper could not create the stdin FIFO (is the disk full?)',
};

export class TaskLifecycle {
  /** Starts waiting for their wrapper's report, by task id. */
  private readonly waiting = new Map<string, (pid: number | undefined) => void>();
  private order: Promise<void> = Promise.resolve();

  constructor(private readonly c: LifecycleContext) {}

  private dir(id: string): string {
    return join(this.c.tasksDir, id);
  }

  /**
   * Writes the start request and hands it to the spawner, then waits for the wrapper to name the
   * command's pid (a fork away): the task is reported started, to the caller of `run` and in the
   * `started` event, with that pid, the one `show` and `ps` print. The task is registered as running
   * before the spawner is asked (with no wrapper pid yet), so a daemon that dies right now still
   * takes it back. The caller saves the registry.
   */
  async start(task: Task, env: Record<string, string>, fromQueue = false): Promise<void> {
    const { registry, log } = this.c;
    const config = this.c.config();
    const dir = this.dir(task.id);
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
    this.c.stall.touch(task.id, 0);
    if (task.timeoutSeconds !== undefined) this.c.deadlines.arm(task.id, startedAt, task.timeoutSeconds);
    const reported = new Promise<number | undefined>((resolve) => this.waiting.set(task.id, resolve));
    this.c.spawner.start(dir);
    this.c.track(task.id);
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
    if (r.dir !== this.dir(id)) return;
    if (r.kind !== 'exited') unlink(startFile(r.dir)).catch(() => undefined); // it holds the environment
    switch (r.kind) {
      case 'started': {
        const pid = applyChild(this.c.children, id, r.childPid, { pid: r.wrapperPid, start: r.wrapperStart });
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
        if (e?.task.state !== 'running' || (e.run?.wrapperPid ?? 0) !== 0 || existsSync(join(r.dir, 'wrapper'))) return;
        this.failToStart(e.task, SETUP_FAILURES[r.what]);
        this.waiting.get(id)?.(undefined);
        this.c.background(
          this.c.persist().then(() => this.c.schedule()),
          id,
          'saving a failed start failed',
        );
        return;
      }
    }
  }

  private failToStart(task: Task, error: string): void {
    const failed = endedUnrun(task, { kind: 'failed_to_start', error });
    this.c.registry.set(failed);
    this.c.stall.forget(task.id);
    this.c.deadlines.forget(task.id);
    this.c.log.warn({ task: task.id, err: error }, 'task failed to start');
    this.c.events.emit('exited', failed);
  }

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

  async finish(ended: Task): Promise<void> {
    const { registry, log, events } = this.c;
    const next = queueRetry(registry, this.c.tasksDir, log, ended);
    const task: Task = next ? { ...ended, retriedBy: next.id } : ended;
    registry.set(task);
    if (next) registry.set(next);
    // Its environment, if it was kept for a retry, has moved on (or is no longer needed).
    if (task.retries) unlink(join(this.dir(task.id), 'spawn.json')).catch(() => undefined);
    this.c.forgetAdopted(task.id);
    this.c.stall.forget(task.id);
    this.c.deadlines.forget(task.id);
    await this.c.persist();
    log.info({ task: task.id, status: statusOf(task) }, 'task ended');
    events.emit('exited', task);
    if (next) events.emit('queued', next);
    await this.c.schedule();
  }
}
