import { renameSync } from 'node:fs';
import { Low } from 'lowdb';
import type { Task } from '../api/tasks.js';
import { now } from '../clock.js';
import type { Logger } from '../log.js';
import { DurableJsonFile, GroupCommit } from '../sys/state-file.js';
import { StateData, type Entry, type RunInfo } from './model.js';
import { rebuildEntries } from './rebuild.js';

/** A failed save is tried again after this long, doubling up to the maximum. */
const RETRY_FIRST_MS = 500;
const RETRY_MAX_MS = 5000;

/**
 * The persisted task list (lowdb, one JSON file, single writer: the daemon). Mutations happen in
 * memory; `commit()` makes them durable before a request is acknowledged.
 *
 * A save that fails (a full disk) leaves the file as it was (temp file + rename) and keeps the
 * changes in memory: the tasks they touch are reported as not saved (`unsaved`), and the save is
 * tried again in the background until it succeeds. `durable` resolves once a task's latest change
 * is on disk.
 */
export class TaskRegistry {
  private readonly byId = new Map<string, Entry>();
  private readonly committer: GroupCommit;
  /** Every change gets the next number; `savedSeq` is the last one a completed write held. */
  private seq = 0;
  private savedSeq = 0;
  /** Tasks changed since the last completed write, with the number of their latest change. */
  private readonly changed = new Map<string, number>();
  private failure: string | null = null;
  private retries = 0;
  private retryTimer: NodeJS.Timeout | null = null;

  private constructor(
    private readonly db: Low<StateData>,
    private readonly log: Logger | undefined,
  ) {
    for (const e of db.data.tasks) this.byId.set(e.task.id, e);
    this.committer = new GroupCommit(async () => {
      const upTo = this.seq;
      this.db.data.tasks = [...this.byId.values()];
      await this.db.write();
      this.savedSeq = Math.max(this.savedSeq, upTo);
    });
  }

  /** `log`: where failed saves (and the save that ends a run of them) are reported. */
  static async open(stateFile: string, log?: Logger): Promise<TaskRegistry> {
    const db = new Low(new DurableJsonFile(stateFile, StateData), { version: 1, nextId: 1, tasks: [] } as StateData);
    await db.read();
    return new TaskRegistry(db, log);
  }

  /** Rebuilds the state file from the task directories after the old one was moved aside. */
  static async recover(stateFile: string, tasksDir: string): Promise<{ movedTo: string | null; tasks: number }> {
    let movedTo: string | null = null;
    try {
      movedTo = `${stateFile}.corrupt-${now().toISOString().replace(/[:.]/g, '-')}`;
      renameSync(stateFile, movedTo);
    } catch {
      movedTo = null;
    }
    const data: StateData = { version: 1, nextId: 1, tasks: rebuildEntries(tasksDir) };
    data.nextId = data.tasks.reduce((m, e) => Math.max(m, Number(e.task.id) + 1), 1);
    const db = new Low(new DurableJsonFile(stateFile, StateData), data);
    await db.write();
    return { movedTo, tasks: data.tasks.length };
  }

  /**
   * Takes back task directories the state file does not list: a daemon killed after starting a task
   * but before saving it (its client never got the id). Such a task may well be running; it is
   * listed again, as `--recover` would, instead of running unseen. One that never started is lost.
   */
  adoptUnlisted(tasksDir: string): string[] {
    const found = rebuildEntries(tasksDir, (id) => this.byId.has(id));
    for (const e of found) {
      const entry: Entry =
        e.task.status === 'queued'
          ? { task: { ...e.task, status: 'lost', endedAt: now().toISOString(), reason: 'the daemon stopped before confirming this task; it never started' } }
          : e;
      this.byId.set(entry.task.id, entry);
      this.changed.set(entry.task.id, ++this.seq);
      this.db.data.nextId = Math.max(this.db.data.nextId, Number(entry.task.id) + 1);
    }
    return found.map((e) => e.task.id);
  }

  allocateId(): string {
    const id = String(this.db.data.nextId);
    this.db.data.nextId += 1;
    this.seq += 1;
    return id;
  }

  get(id: string): Entry | undefined {
    return this.byId.get(id);
  }

  list(): Entry[] {
    return [...this.byId.values()];
  }

  set(task: Task, run?: RunInfo): Entry {
    const entry: Entry = run ? { task, run } : { task };
    this.byId.set(task.id, entry);
    this.changed.set(task.id, ++this.seq);
    return entry;
  }

  delete(id: string): void {
    this.byId.delete(id);
    this.changed.set(id, ++this.seq);
  }

  /** Resolves once everything changed so far is on disk; rejects when that write fails (and retries it in the background). */
  commit(): Promise<void> {
    return this.committer.commit().then(
      () => this.saved(),
      (err: unknown) => {
        this.failed(err);
        throw err;
      },
    );
  }

  /** Resolves once the task's latest change is on disk (at once when it already is). */
  async durable(id: string): Promise<void> {
    while ((this.changed.get(id) ?? 0) > this.savedSeq) await this.commit();
  }

  /** Why the task's latest change is not on disk yet, while saving fails. */
  unsaved(id: string): string | undefined {
    if (this.failure === null || (this.changed.get(id) ?? 0) <= this.savedSeq) return undefined;
    return this.failure;
  }

  /** Stops the background retry (shutdown). */
  stop(): void {
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
  }

  private saved(): void {
    for (const [id, n] of this.changed) if (n <= this.savedSeq) this.changed.delete(id);
    if (this.failure !== null) this.log?.info({ retries: this.retries }, 'task state saved again');
    this.failure = null;
    this.retries = 0;
    this.stop();
  }

  private failed(err: unknown): void {
    const message = (err as Error).message;
    if (this.failure === null) this.log?.error({ err: message }, 'could not save the task state; the last saved copy stays, and the save is retried');
    else this.log?.debug({ err: message, retries: this.retries }, 'task state still not saved');
    this.failure = message;
    if (this.retryTimer) return;
    const delay = Math.min(RETRY_MAX_MS, RETRY_FIRST_MS * 2 ** this.retries);
    this.retries += 1;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      // A failure here is recorded (and retried) by `failed` itself.
      this.commit().catch(() => undefined);
    }, delay);
    this.retryTimer.unref();
  }
}
