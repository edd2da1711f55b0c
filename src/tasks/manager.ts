import type { RunRequest, ScheduleLink, SignalName, Task } from '../api/tasks.js';
import { isFinished, statusOf, type TaskStatus } from '../api/tasks.js';
import type { Config } from '../config.js';
import { AppError } from '../errors.js';
import type { Logger } from '../log.js';
import type { Paths } from '../paths.js';
import { TaskContext } from './context.js';
import { TaskControl } from './control.js';
import type { TaskEvents } from './events.js';
import type { GroupStore } from './groups.js';
import { countTasks, selectTasks, type ListFilter } from './list-filter.js';
import { outputSize } from './output.js';
import type { TaskRegistry } from './registry.js';
import { TaskRunner } from './runner.js';
import { checkBatch, restartRequest, submitBatch, submitTask, type BatchItem, type PrepareTask } from './submit.js';
import { deleteHiddenTaskDir, hideTaskDir, unhideTaskDir } from './removed-dirs.js';
import { waitLastAttempt } from './wait.js';

/** How long shutdown waits for a task's end being recorded before the last save. */
const DRAIN_MS = 2000;

export interface ManagerDeps {
  paths: Paths;
  config: Config;
  log: Logger;
  registry: TaskRegistry;
  events: TaskEvents;
  groups: GroupStore;
}

export type { ListFilter } from './list-filter.js';

/**
 * The task service's one door: queries, submission and control. The run-time cycle (start, end,
 * what starts next) is the runner's; control (signals, stdin, pause) acts through it.
 */
export class TaskManager {
  private readonly c: TaskContext;
  private readonly runner: TaskRunner;
  private readonly control: TaskControl;

  constructor(d: ManagerDeps) {
    this.c = new TaskContext(d.registry, d.events, d.groups, d.log, d.paths.tasksDir, d.config);
    this.runner = new TaskRunner(this.c);
    this.control = new TaskControl(this.c, this.runner);
  }

  /** The default group's limit: the config's `maxParallel` (reloadable). */
  get maxParallel(): number {
    return this.c.config.maxParallel;
  }

  dir(id: string): string {
    return this.c.dir(id);
  }

  // ---- queries -------------------------------------------------------------------------------

  async get(id: string): Promise<Task> {
    return this.live(this.c.entry(id).task);
  }

  /** `status` or `group`: only those (a status filter includes finished tasks without `all`). */
  async list(f: ListFilter): Promise<Task[]> {
    return (await this.page(f)).tasks;
  }

  /** The matching tasks (a page of them when asked), and how many match in all. */
  async page(f: ListFilter): Promise<{ tasks: Task[]; total: number }> {
    const { tasks, total } = selectTasks(
      this.c.registry.list().map((e) => e.task),
      f,
    );
    return { tasks: await Promise.all(tasks.map((t) => this.live(t))), total };
  }

  counts(): Record<TaskStatus | 'attention', number> {
    return countTasks(this.c.registry.list().map((e) => e.task));
  }

  /** A running task's size is read from disk at the moment of asking; a task whose state could not be saved says so. */
  private async live(task: Task): Promise<Task> {
    const saveError = this.c.registry.unsaved(task.id);
    const marked = saveError === undefined ? task : { ...task, saveError };
    if (task.state !== 'running') return marked;
    return { ...marked, outputBytes: await outputSize(task.outputPath) };
  }

  // ---- run -----------------------------------------------------------------------------------

  /**
   * `prepare` runs once the task has its id and directory, before it is queued or started: an agent
   * task writes its spec there and names it in the command it returns. If it throws, the directory
   * is removed and nothing was started.
   */
  async run(req: RunRequest, prepare?: PrepareTask, link?: { schedule?: ScheduleLink; restartOf?: string }): Promise<Task> {
    return this.get(await submitTask(this.c, this.runner, req, prepare, link));
  }

  /** Refuses a batch that could not be submitted whole (see `runBatch`), writing nothing. */
  checkBatch(items: BatchItem[]): void {
    checkBatch(this.c, items);
  }

  /** Many requests as one submission, checked whole first (see submit.ts); the tasks in order. */
  async runBatch(items: BatchItem[]): Promise<Task[]> {
    const ids = await submitBatch(this.c, this.runner, items);
    return Promise.all(ids.map((id) => this.get(id)));
  }

  /** Skips queued tasks whose dependencies failed and starts those with room in their group, oldest first. */
  schedule(): Promise<void> {
    return this.runner.schedule();
  }

  // ---- control -------------------------------------------------------------------------------

  async kill(id: string, signal: SignalName): Promise<Task> {
    await this.control.kill(id, signal);
    return this.get(id);
  }

  /**
   * A new task with the command, cwd, name, stdin, stall time, group, timeout and labels of a finished
   * one, linked to it (`restartOf`). Its environment is the caller's: a task's own is not kept.
   */
  async restart(id: string, env: Record<string, string>): Promise<Task> {
    const req = restartRequest(this.c.entry(id).task, env, (g) => this.c.groups.has(g));
    return this.run(req, undefined, { restartOf: id });
  }

  async pause(id: string): Promise<Task> {
    await this.control.pause(id);
    return this.get(id);
  }

  async resume(id: string): Promise<Task> {
    await this.control.resume(id);
    return this.get(id);
  }

  async input(id: string, text: string, eof: boolean): Promise<Task> {
    await this.control.input(id, text, eof);
    return this.get(id);
  }

  /** Answers once the task has ended and that end is on disk (a daemon killed right after still knows it), or after `timeoutMs`. */
  wait(id: string, timeoutMs: number): Promise<{ task: Task; timedOut: boolean }> {
    return waitLastAttempt(this.c.registry, this.c.events, id, timeoutMs, (x) => this.get(x));
  }

  async remove(id: string): Promise<void> {
    const { registry, events } = this.c;
    const { task, run } = this.c.entry(id);
    if (!isFinished(task)) throw new AppError('conflict', `task ${id} is ${statusOf(task)}; kill it first (\`nightshift kill ${id}\`)`);
    const { tasksDir } = this.c;
    const hidden = await hideTaskDir(tasksDir, id);
    registry.delete(id);
    try {
      await registry.commit();
    } catch (err) {
      // Still listed on disk: keep it listed here too (and its files), as if never asked.
      registry.set(task, run);
      if (hidden) await unhideTaskDir(tasksDir, id);
      throw err;
    }
    if (hidden) await deleteHiddenTaskDir(tasksDir, id);
    events.emit('removed', task);
  }

  // ---- background duties ---------------------------------------------------------------------

  /** Settles or re-adopts tasks left running by an earlier daemon, then starts the queue. */
  startUp(): Promise<void> {
    return this.runner.startUp();
  }

  /**
   * A reloaded config: the queue limit, the output cap and stall time of new tasks, and the stall
   * check interval apply from now on (running tasks keep their cap and stall time).
   */
  async reconfigure(config: Config): Promise<void> {
    const old = this.c.config;
    this.c.config = config;
    if (config.stallCheckSeconds !== old.stallCheckSeconds) this.runner.stall.restartChecks();
    if (config.maxParallel !== old.maxParallel) await this.schedule();
  }

  /**
   * Shutdown: no new start, report or check; then what is under way (a task's end being recorded)
   * is let finish, for at most DRAIN_MS, so the registry's last save holds it. A task that ends
   * after this is settled by the next start from its exit file, as any task that ends while no
   * daemon runs.
   */
  async stop(): Promise<void> {
    this.runner.stop();
    await this.c.drained(DRAIN_MS);
    this.c.registry.stop();
  }
}
