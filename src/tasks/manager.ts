import { rm, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { Attention, RunRequest, ScheduleLink, SignalName, Task } from '../api/tasks.js';
import { isFinished } from '../api/tasks.js';
import { now, nowMs } from '../clock.js';
import type { Config } from '../config.js';
import { AppError } from '../errors.js';
import type { Logger } from '../log.js';
import type { Paths } from '../paths.js';
import { readExitCode } from './adopt.js';
import { Adoption } from './adoption.js';
import type { TaskEvents } from './events.js';
import type { Entry, RunInfo, TaskMeta } from './model.js';
import { killTask, sendInput, type ControlContext } from './control.js';
import { Deadlines } from './deadlines.js';
import type { GroupStore } from './groups.js';
import { baseOf, endedTask, interpretStatus, workflowOf } from './outcome.js';
import { pauseTask, resumeTask, timeOutTask, timeoutReason } from './pause.js';
import { ChildContext, recordChild, resolveChild } from './child-pid.js';
import { decide } from './queue.js';
import { selectTasks, type ListFilter } from './list-filter.js';
import { QueueRunner } from './queue-runner.js';
import { queueRetry } from './retry.js';
import { restartRequest } from './restart.js';
import { outputSize } from './output.js';
import { bootId, readStat } from '../sys/proc.js';
import type { TaskRegistry } from './registry.js';
import { preflight, spawnTask, toArgv } from './spawn.js';
import { StallMonitor } from './stall-monitor.js';
import { claimTaskDir, writeRunInfo, writeTaskFile } from './task-dir.js';
import { endOnDisk, waitForEnd } from './wait.js';

export interface ManagerDeps {
  paths: Paths;
  config: Config;
  log: Logger;
  registry: TaskRegistry;
  events: TaskEvents;
  groups: GroupStore;
}

export type { ListFilter } from './list-filter.js';

/** See `TaskManager.run`. */
export type PrepareTask = (task: { id: string; dir: string }) => Promise<{ command?: string[] }>;

/** Owns the task lifecycle: queue, start, exit, kill, stdin, stalls, re-adoption after a restart. */
export class TaskManager {
  /** Running tasks whose wrapper is not our child (adopted after a restart). */
  private readonly adoption: Adoption;
  private readonly stall: StallMonitor;
  private stallTimer: NodeJS.Timeout | undefined;
  private readonly control: ControlContext;
  private readonly deadlines: Deadlines;
  private readonly queue: QueueRunner;
  private readonly children: ChildContext;

  constructor(private readonly d: ManagerDeps) {
    this.stall = new StallMonitor((id, attention) => this.setAttention(id, attention));
    this.children = { registry: d.registry, log: d.log, dir: (id) => this.dir(id), persist: () => this.persist() };
    this.queue = new QueueRunner({
      registry: d.registry,
      groups: d.groups,
      log: d.log,
      events: d.events,
      dir: (id) => this.dir(id),
      start: (task, env) => this.start(task, env, true),
      persist: () => this.persist(),
    });
    this.deadlines = new Deadlines((id) => this.background(timeOutTask(this.control, id), id, 'timing out a task failed'));
    this.control = {
      registry: d.registry,
      log: d.log,
      dir: (id) => this.dir(id),
      entry: (id) => this.entry(id),
      resolveChild: (id) => resolveChild(this.children, id),
      finish: (task) => this.finish(task),
      touch: (id) => this.stall.touch(id),
      persist: () => this.persist(),
    };
    this.adoption = new Adoption({
      log: d.log,
      dir: (id) => this.dir(id),
      entry: (id) => d.registry.get(id),
      settle: (id, code) => this.settle(id, code),
      settleLost: (id, reason) => this.settleLost(id, reason),
      watch: async (e) => this.stall.touch(e.task.id, await outputSize(e.task.outputPath)),
    });
  }

  /** The default group's limit: the config's `maxParallel` (reloadable). */
  get maxParallel(): number {
    return this.d.config.maxParallel;
  }

  dir(id: string): string {
    return join(this.d.paths.tasksDir, id);
  }

  // ---- queries -------------------------------------------------------------------------------

  async get(id: string): Promise<Task> {
    return this.live(this.entry(id).task);
  }

  /** `status` or `group`: only those (a status filter includes finished tasks without `all`). */
  async list(f: ListFilter): Promise<Task[]> {
    return (await this.page(f)).tasks;
  }

  /** The matching tasks (a page of them when asked), and how many match in all. */
  async page(f: ListFilter): Promise<{ tasks: Task[]; total: number }> {
    const { tasks, total } = selectTasks(
      this.d.registry.list().map((e) => e.task),
      f,
    );
    return { tasks: await Promise.all(tasks.map((t) => this.live(t))), total };
  }

  counts(): Record<Task['status'] | 'attention', number> {
    const c = { queued: 0, running: 0, attention: 0, exited: 0, killed: 0, timed_out: 0, skipped: 0, failed_to_start: 0, lost: 0 };
    for (const { task } of this.d.registry.list()) {
      c[task.status] += 1;
      if (task.status === 'running' && task.attention) c.attention += 1;
    }
    return c;
  }

  private entry(id: string): Entry {
    const e = this.d.registry.get(id);
    if (!e) throw new AppError('not_found', `no task ${id} (see \`nightshift ps --all\`)`);
    return e;
  }

  /** A running task's size is read from disk at the moment of asking; a task whose state could not be saved says so. */
  private async live(task: Task): Promise<Task> {
    const saveError = this.d.registry.unsaved(task.id);
    const marked = saveError === undefined ? task : { ...task, saveError };
    if (task.status !== 'running') return marked;
    return { ...marked, outputBytes: await outputSize(task.outputPath) };
  }

  /**
   * Saves the registry. A failed save (a full disk) is logged, marked on the tasks it leaves unsaved
   * and retried by the registry; what was done (a task started, input sent) stands either way.
   */
  private async persist(): Promise<void> {
    await this.d.registry.commit().catch(() => undefined);
  }

  /** Runs `work` in the background: a failure is logged, never left unobserved. */
  private background(work: Promise<unknown>, task: string, what: string): void {
    work.catch((err: unknown) => this.d.log.error({ task, err }, what));
  }

  // ---- run -----------------------------------------------------------------------------------

  /**
   * `prepare` runs once the task has its id and directory, before it is queued or started: an agent
   * task writes its spec there and names it in the command it returns. If it throws, the directory
   * is removed and nothing was started.
   */
  async run(req: RunRequest, prepare?: PrepareTask, link?: { schedule?: ScheduleLink; restartOf?: string }): Promise<Task> {
    const env = { ...(req.env ?? {}) };
    preflight(toArgv(req.command), req.cwd, env);
    for (const dep of req.after ?? []) {
      if (!this.d.registry.get(dep)) throw new AppError('not_found', `no task ${dep} to run after (see \`nightshift ps --all\`)`);
    }
    if (req.group !== undefined) this.d.groups.check(req.group);
    const { retry, ...rest } = req;
    const workflow = workflowOf({
      ...rest,
      ...(retry ? { retries: retry, attempt: 1 } : {}),
      ...(link?.restartOf !== undefined ? { restartOf: link.restartOf } : {}),
    });
    const { id, dir } = claimTaskDir(this.d.registry, this.d.paths.tasksDir, this.d.log);
    let command = req.command;
    if (prepare) {
      try {
        command = (await prepare({ id, dir })).command ?? command;
      } catch (err) {
        await rm(dir, { recursive: true, force: true });
        throw err;
      }
    }
    const meta: TaskMeta = {
      id,
      name: req.name ?? null,
      command,
      cwd: req.cwd,
      createdAt: now().toISOString(),
      stallAfterSeconds: req.stallAfterSeconds ?? this.d.config.stallAfterSeconds,
      stdin: req.stdin,
      ...workflow,
    };
    const task: Task = {
      ...meta,
      ...(link?.schedule && { schedule: link.schedule }),
      stdin: req.stdin ? 'open' : 'none',
      outputPath: join(dir, 'output.log'),
      outputBytes: 0,
      status: 'queued',
    };
    // On a full disk these fail naming the file: nothing started, nothing left behind.
    const writeOrUndo = async (name: string, text: string) => {
      try {
        writeTaskFile(dir, name, text);
      } catch (err) {
        await rm(dir, { recursive: true, force: true });
        throw err;
      }
    };
    await writeOrUndo('meta.json', JSON.stringify(meta));
    // Starts at once when the queue would start it now (its dependencies done, room in its group).
    const startable = decide([...this.d.registry.list(), { task }], (g) => this.d.groups.limit(g), nowMs()).start.some((t) => t.id === id);
    // A task that may be retried keeps its environment for its next attempts (see retry.ts).
    if (retry) await writeOrUndo('spawn.json', JSON.stringify({ env }));
    if (startable) {
      await this.start(task, env);
    } else {
      await writeOrUndo('spawn.json', JSON.stringify({ env }));
      this.d.registry.set(task);
      this.d.events.emit('queued', task);
      // A dependency that has already failed skips it now.
      await this.schedule();
    }
    await this.persist();
    return this.get(id);
  }

  /**
   * Starts the wrapper, then waits for it to name the command's pid (a fork away): the task is
   * reported started, to the caller of `run` and in the `started` event, with that pid, the one
   * `show` and `ps` print. The wrapper's own pid is internal (run.json). The caller saves the registry.
   */
  private async start(task: Task, env: Record<string, string>, fromQueue = false): Promise<void> {
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
        capBytes: this.d.config.outputCapBytes,
      });
    } catch (err) {
      const failed: Task = { ...baseOf(task), status: 'failed_to_start', endedAt: now().toISOString(), error: (err as Error).message };
      this.d.registry.set(failed);
      this.d.log.warn({ task: task.id, err: (err as Error).message }, 'task failed to start');
      this.d.events.emit('exited', failed);
      return;
    }
    const wrapperPid = spawned.wrapperPid;
    const run: RunInfo = { wrapperPid, wrapperStart: readStat(wrapperPid)?.startTicks ?? 0, bootId: bootId(), capBytes: this.d.config.outputCapBytes };
    const startedAt = now().toISOString();
    // Registered at once, so a daemon that dies right now still takes it back; its pid (the command's) is a fork away.
    this.d.registry.set({ ...baseOf(task), status: 'running', startedAt }, run);
    writeRunInfo(dir, run, startedAt, this.d.log);
    if (fromQueue && !(task.retries ?? 0)) unlink(join(dir, 'spawn.json')).catch(() => undefined);
    this.stall.touch(task.id, 0);
    if (task.timeoutSeconds !== undefined) this.deadlines.arm(task.id, startedAt, task.timeoutSeconds);
    const pid = await recordChild(this.children, task.id, spawned.childPid);
    // Its end is recorded once its pid is, so the ended task carries the pid too.
    this.background(
      spawned.exited.then((code) => this.onWrapperExit(task.id, code)),
      task.id,
      'recording the end of a task failed',
    );
    const running = this.d.registry.get(task.id)?.task ?? task;
    this.d.log.info({ task: task.id, commandPid: pid }, 'task started');
    this.d.events.emit('started', running);
  }

  /** `wrapperCode`: the wrapper's own exit code, the command's status when the exit file could not be written (a full disk). */
  private async onWrapperExit(id: string, wrapperCode: number | null): Promise<void> {
    const recorded = await readExitCode(this.dir(id));
    if (recorded === null && wrapperCode !== null)
      this.d.log.warn({ task: id, code: wrapperCode }, 'the task wrapper could not write the exit status; took it from the wrapper');
    const code = recorded ?? wrapperCode;
    if (code === null) await this.settleLost(id, 'the task wrapper ended without recording an exit status');
    else await this.settle(id, code);
  }

  private async settle(id: string, code: number): Promise<void> {
    const e = this.d.registry.get(id);
    if (!e || e.task.status !== 'running' || !e.run) return;
    const ending = interpretStatus(code, e.run.capBytes);
    const final = e.run.timedOutAt
      ? { status: 'timed_out' as const, reason: timeoutReason(e.task), ...(ending.status === 'killed' ? { signal: ending.signal } : {}) }
      : ending;
    await this.finish(endedTask(e.task, final, await outputSize(e.task.outputPath)));
  }

  private async settleLost(id: string, reason: string): Promise<void> {
    const e = this.d.registry.get(id);
    if (!e || e.task.status !== 'running') return;
    await this.finish(endedTask(e.task, { status: 'lost', reason }, await outputSize(e.task.outputPath)));
  }

  private async finish(ended: Task): Promise<void> {
    const next = queueRetry(this.d.registry, this.d.paths.tasksDir, this.d.log, ended);
    const task: Task = next ? { ...ended, retriedBy: next.id } : ended;
    this.d.registry.set(task);
    if (next) this.d.registry.set(next);
    // Its environment, if it was kept for a retry, has moved on (or is no longer needed).
    if (task.retries) unlink(join(this.dir(task.id), 'spawn.json')).catch(() => undefined);
    this.adoption.forget(task.id);
    this.stall.forget(task.id);
    this.deadlines.forget(task.id);
    await this.persist();
    this.d.log.info({ task: task.id, status: task.status }, 'task ended');
    this.d.events.emit('exited', task);
    if (next) this.d.events.emit('queued', next);
    await this.schedule();
  }

  /** Skips queued tasks whose dependencies failed and starts those with room in their group, oldest first. */
  schedule(): Promise<void> {
    return this.queue.schedule();
  }

  // ---- control -------------------------------------------------------------------------------

  async kill(id: string, signal: SignalName): Promise<Task> {
    await killTask(this.control, id, signal);
    return this.get(id);
  }

  /**
   * A new task with the command, cwd, name, stdin, stall time, group, timeout and labels of a finished
   * one, linked to it (`restartOf`). Its environment is the caller's: a task's own is not kept.
   */
  async restart(id: string, env: Record<string, string>): Promise<Task> {
    const req = restartRequest(this.entry(id).task, env, (g) => this.d.groups.has(g));
    return this.run(req, undefined, { restartOf: id });
  }

  async pause(id: string): Promise<Task> {
    await pauseTask(this.control, id);
    return this.get(id);
  }

  async resume(id: string): Promise<Task> {
    await resumeTask(this.control, id);
    return this.get(id);
  }

  async input(id: string, text: string, eof: boolean): Promise<Task> {
    await sendInput(this.control, id, text, eof);
    return this.get(id);
  }

  /** Answers once the task has ended and that end is on disk (a daemon killed right after still knows it), or after `timeoutMs`. */
  async wait(id: string, timeoutMs: number): Promise<{ task: Task; timedOut: boolean }> {
    const until = nowMs() + timeoutMs;
    let r = await this.waitOne(id, timeoutMs);
    // A failed attempt that was retried: the answer is the last attempt's.
    while (r.task.retriedBy !== undefined && this.d.registry.get(r.task.retriedBy)) r = await this.waitOne(r.task.retriedBy, Math.max(0, until - nowMs()));
    return r;
  }

  private async waitOne(id: string, timeoutMs: number): Promise<{ task: Task; timedOut: boolean }> {
    const e = this.entry(id);
    const r = isFinished(e.task) ? { task: e.task, timedOut: false } : await waitForEnd(this.d.events, e.task, timeoutMs, () => this.get(id));
    if (isFinished(r.task)) await endOnDisk(this.d.registry, r.task);
    return r;
  }

  async remove(id: string): Promise<void> {
    const { task, run } = this.entry(id);
    if (!isFinished(task)) throw new AppError('conflict', `task ${id} is ${task.status}; kill it first (\`nightshift kill ${id}\`)`);
    this.d.registry.delete(id);
    try {
      await this.d.registry.commit();
    } catch (err) {
      // Still listed on disk: keep it listed here too (and its files), as if never asked.
      this.d.registry.set(task, run);
      throw err;
    }
    await rm(this.dir(id), { recursive: true, force: true });
    this.d.events.emit('removed', task);
  }

  private setAttention(id: string, attention: Attention | undefined): void {
    const e = this.d.registry.get(id);
    if (!e || e.task.status !== 'running') return;
    const { attention: _old, ...rest } = e.task;
    const task: Task = attention ? { ...rest, attention } : rest;
    this.d.registry.set(task, e.run);
    this.background(this.persist(), id, 'saving attention failed');
    if (attention) {
      this.d.log.info({ task: id, kind: attention.kind }, 'task needs attention');
      this.d.events.emit('attention', task);
    }
  }

  // ---- background duties ---------------------------------------------------------------------

  /** Settles or re-adopts tasks left running by an earlier daemon, then starts the queue. */
  async startUp(): Promise<void> {
    const running = this.d.registry.list().filter((e) => e.task.status === 'running');
    await this.adoption.start(running);
    for (const { task } of running) {
      const cur = this.d.registry.get(task.id)?.task;
      if (cur?.status === 'running' && cur.timeoutSeconds !== undefined) this.deadlines.arm(cur.id, cur.startedAt, cur.timeoutSeconds);
    }
    await this.schedule();
    this.startStallChecks();
  }

  private startStallChecks(): void {
    clearInterval(this.stallTimer);
    const check = () => this.stall.checkEntries(this.d.registry.list(), (err) => this.d.log.warn({ err: err.message }, 'stall check failed'));
    this.stallTimer = setInterval(() => this.background(check(), '-', 'stall check failed'), this.d.config.stallCheckSeconds * 1000);
    this.stallTimer.unref();
  }

  /**
   * A reloaded config: the queue limit, the output cap and stall time of new tasks, and the stall
   * check interval apply from now on (running tasks keep their cap and stall time).
   */
  async reconfigure(config: Config): Promise<void> {
    const old = this.d.config;
    this.d.config = config;
    if (config.stallCheckSeconds !== old.stallCheckSeconds && this.stallTimer) this.startStallChecks();
    if (config.maxParallel !== old.maxParallel) await this.schedule();
  }

  stop(): void {
    this.adoption.stop();
    this.deadlines.stop();
    this.queue.stop();
    clearInterval(this.stallTimer);
    this.d.registry.stop();
  }
}
