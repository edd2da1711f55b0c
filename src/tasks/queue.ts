/**
 * Which queued tasks start now and which will never run: dependencies (`after`), then each group's
 * parallel limit, in submission order (ids grow with submission). Pure: the runner acts on the answer.
 */
import { DEFAULT_GROUP } from '../api/groups.js';
import { endedAs, isFinished, type Task } from '../api/tasks.js';
import { outcomeHow } from '../api/task-status.js';
import type { Entry } from './model.js';

export interface QueueDecision {
  start: Task[];
  skip: { task: Task; reason: string }[];
  /** The earliest time a queued attempt's retry delay ends (ms), if one is waiting for it. */
  wakeAt?: number;
}

export const groupOf = (t: Task): string => t.group ?? DEFAULT_GROUP;

/** Why a finished dependency does not count as success; null when it exited 0. */
function failure(id: string, dep: Task | undefined): string | null {
  if (!dep) return `dependency ${id} was removed before it could be seen to succeed`;
  if (dep.state !== 'finished') return `dependency ${id} is ${dep.state}`;
  return endedAs(dep, 'exited')?.exitCode === 0 ? null : `dependency ${id} ${outcomeHow(dep.outcome)}`;
}

/** `pending`: still waiting on a dependency; `skip`: one did not succeed (with why); `ready`: free to start. */
function depsVerdict(task: Task, status: (id: string) => Task | undefined): { kind: 'pending' } | { kind: 'skip'; reason: string } | { kind: 'ready' } {
  for (const id of task.after ?? []) {
    const dep = status(id);
    if (dep && !isFinished(dep)) return { kind: 'pending' };
  }
  if (task.afterAny) return { kind: 'ready' };
  for (const id of task.after ?? []) {
    const why = failure(id, status(id));
    if (why !== null) return { kind: 'skip', reason: why };
  }
  return { kind: 'ready' };
}

/** A dependency that failed and was retried: its last attempt stands for it. */
function lastAttempt(id: string, byId: Map<string, Task>): Task | undefined {
  let t = byId.get(id);
  for (let i = 0; t?.retriedBy !== undefined && byId.has(t.retriedBy) && i < 1000; i++) t = byId.get(t.retriedBy);
  return t;
}

export function decide(entries: readonly Entry[], limit: (group: string) => number, nowMs: number): QueueDecision {
  const byId = new Map(entries.map((e) => [e.task.id, e.task] as const));
  const running = new Map<string, number>();
  for (const { task } of entries) if (task.state === 'running') running.set(groupOf(task), (running.get(groupOf(task)) ?? 0) + 1);
  const queued = entries
    .map((e) => e.task)
    .filter((t) => t.state === 'queued')
    .sort((a, b) => Number(a.id) - Number(b.id));
  const out: QueueDecision = { start: [], skip: [] };
  for (const task of queued) {
    if (task.notBefore !== undefined && Date.parse(task.notBefore) > nowMs) {
      const at = Date.parse(task.notBefore);
      out.wakeAt = Math.min(out.wakeAt ?? at, at);
      continue;
    }
    const v = depsVerdict(task, (id) => lastAttempt(id, byId));
    if (v.kind === 'pending') continue;
    if (v.kind === 'skip') {
      out.skip.push({ task, reason: v.reason });
      // Its own dependents, later in this pass, see it skipped.
      byId.set(task.id, { ...task, state: 'finished', endedAt: '', outcome: { kind: 'skipped', reason: v.reason } });
      continue;
    }
    const g = groupOf(task);
    const n = running.get(g) ?? 0;
    if (n >= limit(g)) continue;
    running.set(g, n + 1);
    out.start.push(task);
  }
  return out;
}
