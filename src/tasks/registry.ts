import { readdirSync, readFileSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { Low } from 'lowdb';
import type { Task } from '../api/tasks.js';
import { now } from '../clock.js';
import { DurableJsonFile, GroupCommit } from '../sys/state-file.js';
import { PendingSpawn, RunInfo, StateData, TaskMeta, type Entry } from './model.js';

/**
 * The persisted task list (lowdb, one JSON file, single writer: the daemon). Mutations happen in
 * memory; `commit()` makes them durable before a request is acknowledged.
 */
export class TaskRegistry {
  private readonly byId = new Map<string, Entry>();
  private readonly committer: GroupCommit;

  private constructor(private readonly db: Low<StateData>) {
    for (const e of db.data.tasks) this.byId.set(e.task.id, e);
    this.committer = new GroupCommit(async () => {
      this.db.data.tasks = [...this.byId.values()];
      await this.db.write();
    });
  }

  static async open(stateFile: string): Promise<TaskRegistry> {
    const db = new Low(new DurableJsonFile(stateFile, StateData), { version: 1, nextId: 1, tasks: [] } as StateData);
    await db.read();
    return new TaskRegistry(db);
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
      this.db.data.nextId = Math.max(this.db.data.nextId, Number(entry.task.id) + 1);
    }
    return found.map((e) => e.task.id);
  }

  allocateId(): string {
    const id = String(this.db.data.nextId);
    this.db.data.nextId += 1;
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
    return entry;
  }

  delete(id: string): void {
    this.byId.delete(id);
  }

  commit(): Promise<void> {
    return this.committer.commit();
  }
}

function readJson(file: string): unknown {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}

/**
 * One entry per task directory with a readable meta.json. A task that had started comes back as
 * running with its run info (re-adoption then settles it); one that had not, as queued if its
 * pending spec survived, else lost.
 */
function rebuildEntries(tasksDir: string, skip: (id: string) => boolean = () => false): Entry[] {
  let names: string[] = [];
  try {
    names = readdirSync(tasksDir);
  } catch {
    return [];
  }
  const entries: Entry[] = [];
  for (const name of names) {
    if (skip(name)) continue;
    const dir = join(tasksDir, name);
    const meta = TaskMeta.safeParse(readJson(join(dir, 'meta.json')));
    if (!meta.success || meta.data.id !== name) continue;
    const m = meta.data;
    const base = {
      id: m.id,
      name: m.name,
      command: m.command,
      cwd: m.cwd,
      createdAt: m.createdAt,
      stallAfterSeconds: m.stallAfterSeconds,
      stdin: m.stdin ? ('open' as const) : ('none' as const),
      outputPath: join(dir, 'output.log'),
      outputBytes: 0,
    };
    const runJson = readJson(join(dir, 'run.json'));
    const run = RunInfo.safeParse(runJson);
    if (run.success) {
      const saved = (runJson as { startedAt?: unknown }).startedAt;
      const startedAt = typeof saved === 'string' ? saved : m.createdAt;
      entries.push({ task: { ...base, status: 'running', pid: run.data.childPid ?? run.data.wrapperPid, startedAt }, run: run.data });
    } else if (PendingSpawn.safeParse(readJson(join(dir, 'spawn.json'))).success) {
      entries.push({ task: { ...base, status: 'queued' } });
    } else {
      entries.push({
        task: { ...base, status: 'lost', endedAt: now().toISOString(), reason: 'state rebuilt: the task never started and its spec is gone' },
      });
    }
  }
  return entries.sort((a, b) => Number(a.task.id) - Number(b.task.id));
}
