/**
 * Acts on the queue's decisions (queue.ts): skips the tasks whose dependencies failed, starts those
 * with room in their group from their saved spec, and looks again when a retry delay ends. Passes
 * run one at a time, so two never hand out the same free slot; within a pass the tasks start together.
 */
import { readFile, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { Task } from '../api/tasks.js';
import { nowMs } from '../clock.js';
import type { Logger } from '../log.js';
import type { TaskEvents } from './events.js';
import type { GroupStore } from './groups.js';
import { PendingSpawn } from './model.js';
import { endedUnrun } from './outcome.js';
import { decide } from './queue.js';
import type { TaskRegistry } from './registry.js';

export interface QueueContext {
  registry: TaskRegistry;
  groups: GroupStore;
  log: Logger;
  events: TaskEvents;
  dir(id: string): string;
  /** Starts a queued task with its saved environment (the caller saves the registry). */
  start(task: Task, env: Record<string, string>): Promise<void>;
  persist(): Promise<void>;
}

export class QueueRunner {
  private pass: Promise<void> = Promise.resolve();
  /** The pass queued behind the running one, not started yet. */
  private waiting: Promise<void> | null = null;
  private readonly envs = new Map<string, Record<string, string>>();
  /** The next time a queued attempt's delay (`--retry-delay`) ends. */
  private wakeTimer: NodeJS.Timeout | undefined;

  constructor(private readonly c: QueueContext) {}

  /**
   * A pass after the one running now. Calls that come while a pass waits for its turn share it: the
   * ends of a burst of tasks cost one look at the queue, not one each.
   */
  schedule(): Promise<void> {
    if (this.waiting) return this.waiting;
    const pass = this.pass.then(() => {
      this.waiting = null;
      return this.run();
    });
    this.waiting = pass;
    this.pass = pass.catch(() => undefined);
    return pass;
  }

  /** The environment of a task queued by this daemon, kept so its start need not read spawn.json back. */
  remember(id: string, env: Record<string, string>): void {
    this.envs.set(id, env);
  }

  stop(): void {
    clearTimeout(this.wakeTimer);
  }

  private async run(): Promise<void> {
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
        starts.push(this.c.start(task, env));
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
    this.wakeTimer = setTimeout(
      () => {
        this.schedule().catch((err: unknown) => this.c.log.error({ err }, 'starting queued tasks failed'));
      },
      Math.max(0, at - nowMs()) + 5,
    );
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
