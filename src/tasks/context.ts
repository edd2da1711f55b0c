/**
 * What every part of the task service shares: the task list, the event bus, the log, the groups,
 * the config and where task directories live. Built once by the manager and handed to each part,
 * so no part needs a callback into another to save, log or find a task.
 */
import { join } from 'node:path';
import type { Config } from '../config.js';
import { AppError } from '../errors.js';
import type { Logger } from '../log.js';
import type { TaskEvents } from './events.js';
import type { GroupStore } from './groups.js';
import type { Entry } from './model.js';
import type { TaskRegistry } from './registry.js';

export class TaskContext {
  /** Background work not ended yet: shutdown waits for it before the last save (see `drained`). */
  private readonly inFlight = new Set<Promise<unknown>>();

  constructor(
    readonly registry: TaskRegistry,
    readonly events: TaskEvents,
    readonly groups: GroupStore,
    readonly log: Logger,
    readonly tasksDir: string,
    /** Replaced on reload: read at each use, so a reloaded config applies from then on. */
    public config: Config,
  ) {}

  dir(id: string): string {
    return join(this.tasksDir, id);
  }

  /** The entry, or a `not_found` error. */
  entry(id: string): Entry {
    const e = this.registry.get(id);
    if (!e) throw new AppError('not_found', `no task ${id} (see \`nightshift ps --all\`)`);
    return e;
  }

  /**
   * Saves the registry. A failed save (a full disk) is logged, marked on the tasks it leaves unsaved
   * and retried by the registry; what was done (a task started, input sent) stands either way.
   */
  async persist(): Promise<void> {
    await this.registry.commit().catch(() => undefined);
  }

  /** Runs `work` in the background: a failure is logged, never left unobserved. */
  background(work: Promise<unknown>, task: string, what: string): void {
    const done = work.catch((err: unknown) => this.log.error({ task, err }, what));
    this.inFlight.add(done);
    void done.finally(() => this.inFlight.delete(done));
  }

  /** Resolves once the background work has ended, or after `ms`, whichever comes first. */
  async drained(ms: number): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)));
    const all = (async () => {
      // Work may start more work (a task's end moves the queue on).
      while (this.inFlight.size > 0) await Promise.all(this.inFlight);
    })();
    await Promise.race([all, late]);
    clearTimeout(timer);
  }
}
