import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { RunRequest, ScheduleLink, SignalName, Task } from '../api/tasks.js';
import { isFinished, statusOf, type TaskStatus } from '../api/tasks.js';
import type { Config } from '../config.js';
import { AppError } from '../errors.js';
import type { Logger } from '../log.js';
import type { Paths } from '../paths.js';
import { Adoption } from './adoption.js';
import type { TaskEvents } from './events.js';
import type { Entry } from './model.js';
import { killTask, sendInput, type ControlContext } from './control.js';
import { Deadlines } from './deadlines.js';
import type { GroupStore } from './groups.js';
import { pauseTask, resumeTask, timeOutTask } from './pause.js';
import { ChildContext, resolveChild } from './child-pid.js';
import { TaskLifecycle } from './lifecycle.js';
import { countTasks, selectTasks, type ListFilter } from './list-filter.js';
import { setAttention } from './attention.js';
import { QueueRunner } from './queue-runner.js';
import { restartRequest } from './restart.js';
import { outputSize } from './output.js';
import type { TaskRegistry } from './registry.js';
import { Spawner } from './spawner/spawner.js';
import { StallMonitor } from './stall-monitor.js';
import { submitTask, type PrepareTask, type SubmitContext } from './submit.js';
import { checkBatch, submitBatch, type BatchItem } from './submit-batch.js';
import { waitLastAttempt } from './wait.js';

export interface ManagerDeps {
  paths: Paths;
  config: Config;
  log: Logger;
  registry: TaskRegistry;
  events: TaskEvents;
  groups: GroupStore;
}

export type { ListFilter } from './list-filter.js';

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
  private readonly lifecycle: TaskLifecycle;
  private readonly submit: SubmitContext;
  private readonly spawner: Spawner;

  constructor(private readonly d: ManagerDeps) {
    this.stall = new StallMonitor((id, attention) => this.background(setAttention(d, id, attention), id, 'saving attention failed'));
    this.children = { registry: d.registry, log: d.log, dir: (id) => this.dir(id), persist: () => this.persist() };
    this.queue = new QueueRunner({
      registry: d.registry,
      groups: d.groups,
      log: d.log,
      events: d.events,
      dir: (id) => this.dir(id),
      start: (task, env) => this.lifecycle.start(task, env, true),
      persist: () => this.persist(),
    });
    this.deadlines = new Deadlines((id) => this.background(timeOutTask(this.control, id), id, 'timing out a task failed'));
    this.control = {
      registry: d.registry,
      log: d.log,
      dir: (id) => this.dir(id),
      entry: (id) => this.entry(id),
      resolveChild: (id) => resolveChild(this.children, id),
      finish: (task) => this.lifecycle.finish(task),
      touch: (id) => this.stall.touch(id),
      persist: () => this.persist(),
    };
    this.adoption = new Adoption({
      log: d.log,
      dir: (id) => this.dir(id),
      entry: (id) => d.registry.get(id),
      settle: (id, code, endedAt) => this.lifecycle.settle(id, code, endedAt),
      settleLost: (id, reason, endedAt) => this.lifecycle.settleLost(id, reason, endedAt),
      watch: async (e) => this.stall.touch(e.task.id, await outputSize(e.task.outputPath)),
      learnWrapper: (id, pid, start) => {
        const e = d.registry.get(id);
        if (e?.run && e.task.state === 'running') d.registry.set(e.task, { ...e.run, wrapperPid: pid, wrapperStart: start });
      },
    });
    this.spawner = new Spawner((r) => this.lifecycle.onReport(r), d.log);
    const shared = { registry: d.registry, log: d.log, events: d.events, tasksDir: d.paths.tasksDir, config: () => this.d.config };
    this.lifecycle = new TaskLifecycle({
      ...shared,
      stall: this.stall,
      deadlines: this.deadlines,
      children: this.children,
      spawner: this.spawner,
      track: (id) => this.adoption.track(id),
      forgetAdopted: (id) => this.adoption.forget(id),
      schedule: () => this.schedule(),
      persist: () => this.persist(),
      background: (work, task, what) => this.background(work, task, what),
    });
    this.submit = {
      ...shared,
      groups: d.groups,
      start: (task, env) => this.lifecycle.start(task, env),
      remember: (id, env) => this.queue.remember(id, env),
      schedule: () => this.schedule(),
      persist: () => this.persist(),
    };
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

  counts(): Record<TaskStatus | 'attention', number> {
    return countTasks(this.d.registry.list().map((e) => e.task));
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
    if (task.state !== 'running') return marked;
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
    return this.get(await submitTask(this.submit, req, prepare, link));
  }

  /** Refuses a batch that could not be submitted whole (see `runBatch`), writing nothing. */
  checkBatch(items: BatchItem[]): void {
    checkBatch(this.submit, items);
  }

  /** Many requests as one submission, checked whole first (see submit-batch.ts); the tasks in order. */
  async runBatch(items: BatchItem[]): Promise<Task[]> {
    const ids = await submitBatch(this.submit, items);
    return Promise.all(ids.map((id) => this.get(id)));
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
    this.rearm(id);
    return this.get(id);
  }

  async resume(id: string): Promise<Task> {
    await resumeTask(this.control, id);
    this.rearm(id);
    return this.get(id);
  }

  /** A paused task's deadline waits; a resumed one's moves by the time it was paused. */
  private rearm(id: string): void {
    const e = this.d.registry.get(id);
    if (e) this.deadlines.armFor(e);
  }

  async input(id: string, text: string, eof: boolean): Promise<Task> {
    await sendInput(this.control, id, text, eof);
    return this.get(id);
  }

  /** Answers once the task has ended and that end is on disk (a daemon killed right after still knows it), or after `timeoutMs`. */
  wait(id: string, timeoutMs: number): Promise<{ task: Task; timedOut: boolean }> {
    return waitLastAttempt(this.d.registry, this.d.events, id, timeoutMs, (x) => this.get(x));
  }

  async remove(id: string): Promise<void> {
    const { task, run } = this.entry(id);
    if (!isFinished(task)) throw new AppError('conflict', `task ${id} is ${statusOf(task)}; kill it first (\`nightshift kill ${id}\`)`);
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

  // ---- background duties ---------------------------------------------------------------------

  /** Settles or re-adopts tasks left running by an earlier daemon, then starts the queue. */
  async startUp(): Promise<void> {
    const running = this.d.registry.list().filter((e) => e.task.state === 'running');
    await this.adoption.start(running);
    for (const { task } of running) this.rearm(task.id);
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
    this.spawner.stop();
    this.adoption.stop();
    this.deadlines.stop();
    this.queue.stop();
    clearInterval(this.stallTimer);
    this.d.registry.stop();
  }
}
