/**
 * A task's life after it is created: started (wrapper spawned, pid recorded, deadline armed), its
 * end read from the wrapper (or from an adopted task's exit file), settled into its final state,
 * and followed by its next attempt when it failed with retries left. Moved out of TaskManager as is.
 */
import { unlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { Task } from '../api/tasks.js';
import { now } from '../clock.js';
import type { Config } from '../config.js';
import type { Logger } from '../log.js';
import { bootId, readStat } from '../sys/proc.js';
import { readExitCode } from './adopt.js';
import { recordChild, type ChildContext } from './child-pid.js';
import type { Deadlines } from './deadlines.js';
import type { TaskEvents } from './events.js';
import type { RunInfo } from './model.js';
import { baseOf, endedTask, interpretStatus } from './outcome.js';
import { outputSize } from './output.js';
import { timeoutReason } from './pause.js';
import type { TaskRegistry } from './registry.js';
import { queueRetry } from './retry.js';
import { spawnTask } from './spawn.js';
import type { StallMonitor } from './stall-monitor.js';
import { writeRunInfo } from './task-dir.js';

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
  /** A task that ended is no longer polled as an adopted one. */
  forgetAdopted(id: string): void;
  /** Starts what the queue can start now (after an end). */
  schedule(): Promise<void>;
  persist(): Promise<void>;
  /** Runs `work` in the background: a failure is logged, never left unobserved. */
  background(work: Promise<unknown>, task: string, what: string): void;
}

export class TaskLifecycle {
  constructor(private readonly c: LifecycleContext) {}

  private dir(id: string): string {
    return join(this.c.tasksDir, id);
  }

  /**
   * Starts the wrapper, then waits for it to name the command's pid (a fork away): the task is
   * reported started, to the caller of `run` and in the `started` event, with that pid, the one
   * `show` and `ps` print. The wrapper's own pid is internal (run.json). The caller saves the registry.
   */
  async start(task: Task, env: Record<string, string>, fromQueue = false): Promise<void> {
    const { registry, log, events } = this.c;
    const config = this.c.config();
    const dir = this.dir(task.id);
    let spawned;
    try {
      spawned = spawnTask({
        dir,
        outputPath: task.outputPath,
        command: task.command,
        cwd: task.cwd,
        env,
        stdin: task.stdin === 'open',
        capBytes: config.outputCapBytes,
      });
    } catch (err) {
      const failed: Task = { ...baseOf(task), status: 'failed_to_start', endedAt: now().toISOString(), error: (err as Error).message };
      registry.set(failed);
      log.warn({ task: task.id, err: (err as Error).message }, 'task failed to start');
      events.emit('exited', failed);
      return;
    }
    const wrapperPid = spawned.wrapperPid;
    const run: RunInfo = { wrapperPid, wrapperStart: readStat(wrapperPid)?.startTicks ?? 0, bootId: bootId(), capBytes: config.outputCapBytes };
    const startedAt = now().toISOString();
    // Registered at once, so a daemon that dies right now still takes it back; its pid (the command's) is a fork away.
    registry.set({ ...baseOf(task), status: 'running', startedAt }, run);
    writeRunInfo(dir, run, startedAt, log);
    if (fromQueue && !(task.retries ?? 0)) unlink(join(dir, 'spawn.json')).catch(() => undefined);
    this.c.stall.touch(task.id, 0);
    if (task.timeoutSeconds !== undefined) this.c.deadlines.arm(task.id, startedAt, task.timeoutSeconds);
    const pid = await recordChild(this.c.children, task.id, spawned.childPid);
    // Its end is recorded once its pid is, so the ended task carries the pid too.
    this.c.background(
      spawned.exited.then((code) => this.onWrapperExit(task.id, code)),
      task.id,
      'recording the end of a task failed',
    );
    const running = registry.get(task.id)?.task ?? task;
    log.info({ task: task.id, commandPid: pid }, 'task started');
    events.emit('started', running);
  }

  /** `wrapperCode`: the wrapper's own exit code, the command's status when the exit file could not be written (a full disk). */
  private async onWrapperExit(id: string, wrapperCode: number | null): Promise<void> {
    const recorded = await readExitCode(this.dir(id));
    if (recorded === null && wrapperCode !== null)
      this.c.log.warn({ task: id, code: wrapperCode }, 'the task wrapper could not write the exit status; took it from the wrapper');
    const code = recorded ?? wrapperCode;
    if (code === null) await this.settleLost(id, 'the task wrapper ended without recording an exit status');
    else await this.settle(id, code);
  }

  /** `endedAt`: when the task ended, if not now (an adopted task's exit file was written earlier). */
  async settle(id: string, code: number, endedAt?: Date): Promise<void> {
    const e = this.c.registry.get(id);
    if (!e || e.task.status !== 'running' || !e.run) return;
    const ending = interpretStatus(code, e.run.capBytes);
    const final = e.run.timedOutAt
      ? { status: 'timed_out' as const, reason: timeoutReason(e.task), ...(ending.status === 'killed' ? { signal: ending.signal } : {}) }
      : ending;
    await this.finish(endedTask(e.task, final, await outputSize(e.task.outputPath), endedAt));
  }

  async settleLost(id: string, reason: string, endedAt?: Date): Promise<void> {
    const e = this.c.registry.get(id);
    if (!e || e.task.status !== 'running') return;
    await this.finish(endedTask(e.task, { status: 'lost', reason }, await outputSize(e.task.outputPath), endedAt));
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
    log.info({ task: task.id, status: task.status }, 'task ended');
    events.emit('exited', task);
    if (next) events.emit('queued', next);
    await this.c.schedule();
  }
}
