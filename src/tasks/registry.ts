import type { Task } from '../api/tasks.js';
import { now } from '../clock.js';
import type { Logger } from '../log.js';
import { GroupCommit } from '../sys/state-file.js';
import type { Entry, RunInfo, StateData } from './model.js';
import { rebuildEntries } from './rebuild-from-dirs.js';
import { settleHiddenTaskDirs } from './removed-dirs.js';
import { StateJournal, type Change } from './state-journal.js';

/** A failed save is tried again after this long, doubling up to the maximum. */
const RETRY_FIRST_MS = 500;
const RETRY_MAX_MS = 5000;

/**
 * The persisted task list (a snapshot and a journal of changes, see StateJournal; single writer: the
 * daemon). Mutations happen in memory; `commit()` makes them durable before a request is
 * acknowledged, writing only the tasks changed since the last save.
 *
 * A save that fails (a full disk) leaves what is on disk as it was and keeps the
 * changes in memory: the tasks they touch are reported as not saved (`unsaved`), and the save is
 * tried again in the background until it succeeds. `durable` resolves once a task's latest change
 * is on disk.
 */
export class TaskRegistry {
  private readonly byId = new Map<string, Entry>();
  private readonly committer: GroupCommit;
  private nextId: number;
  /** The next id as the last completed write left it. */
  private savedNextId: number;
  /** Every change gets the next number; `savedSeq` is the last one a completed write held. */
  private seq = 0;
  private savedSeq = 0;
  /** Tasks changed since the last completed write, with the number of their latest change. */
  private readonly changed = new Map<string, number>();
  private failure: string | null = null;
  private retries = 0;
  private retryTimer: NodeJS.Timeout | null = null;

  private constructor(
    private readonly store: StateJournal,
    data: StateData,
    private readonly log: Logger | undefined,
  ) {
    for (const e of data.tasks) this.byId.set(e.task.id, e);
    this.nextId = data.nextId;
    this.savedNextId = data.nextId;
    this.committer = new GroupCommit(
      async () => {
        const upTo = this.seq;
        const nextId = this.nextId;
        if (this.store.wantsCompaction) await this.store.compact(this.snapshot());
        else {
          const records = this.pending(nextId);
          if (records.length > 0) await this.store.append(records);
        }
        this.savedSeq = Math.max(this.savedSeq, upTo);
        this.savedNextId = nextId;
      },
      undefined,
      true,
    );
  }

  /** `log`: where failed saves (and the save that ends a run of them) are reported. */
  static async open(stateFile: string, log?: Logger): Promise<TaskRegistry> {
    const { store, data } = await StateJournal.open(stateFile);
    return new TaskRegistry(store, data, log);
  }

  /** Rebuilds the state file from the task directories after the old one (and its journal) was moved aside. */
  static async recover(stateFile: string, tasksDir: string): Promise<{ movedTo: string | null; tasks: number }> {
    const movedTo = StateJournal.moveAside(stateFile, `.corrupt-${now().toISOString().replace(/[:.]/g, '-')}`);
    const data: StateData = { version: 1, nextId: 1, tasks: rebuildEntries(tasksDir) };
    data.nextId = data.tasks.reduce((m, e) => Math.max(m, Number(e.task.id) + 1), 1);
    const { store } = await StateJournal.open(stateFile);
    await store.compact(data);
    await store.close();
    return { movedTo, tasks: data.tasks.length };
  }

  private snapshot(): StateData {
    return { version: 1, nextId: this.nextId, tasks: [...this.byId.values()] };
  }

  /** A record for each task changed since the last completed write (or one for the next id alone). */
  private pending(nextId: number): Change[] {
    const records: Change[] = [];
    for (const [id, n] of this.changed) {
      if (n <= this.savedSeq) continue;
      const e = this.byId.get(id);
      records.push(e ? { nextId, set: e } : { nextId, del: id });
    }
    if (records.length === 0 && nextId !== this.savedNextId) records.push({ nextId });
    return records;
  }

  /**
   * Takes back task directories the state file does not list: a daemon killed after starting a task
   * but before saving it (its client never got the id). Such a task may well be running; it is
   * listed again, as `--recover` would, instead of running unseen. One that never started is lost.
   */
  adoptUnlisted(tasksDir: string): string[] {
    settleHiddenTaskDirs(tasksDir, (id) => this.byId.has(id));
    const found = rebuildEntries(tasksDir, (id) => this.byId.has(id));
    for (const e of found) {
      const entry: Entry =
        e.task.state === 'queued'
          ? {
              task: {
                ...e.task,
                state: 'finished',
                endedAt: now().toISOString(),
                outcome: { kind: 'lost', reason: 'the daemon stopped before confirming this task; it never started' },
              },
            }
          : e;
      this.byId.set(entry.task.id, entry);
      this.changed.set(entry.task.id, ++this.seq);
      this.nextId = Math.max(this.nextId, Number(entry.task.id) + 1);
    }
    return found.map((e) => e.task.id);
  }

  allocateId(): string {
    const id = String(this.nextId);
    this.nextId += 1;
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

  /**
   * Shutdown: saves what is left and folds the journal into the snapshot, so a stopped daemon leaves
   * one whole tasks.json. A failure leaves the journal, which the next start replays.
   */
  async close(): Promise<void> {
    this.stop();
    try {
      await this.commit();
      if (!this.store.journalEmpty) await this.store.compact(this.snapshot());
    } finally {
      this.stop();
      await this.store.close();
    }
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
