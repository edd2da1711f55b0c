import { isFinished, statusOf, TASK_STATUSES, type Task, type TaskStatus } from '../api/tasks.js';
import { groupOf } from './queue.js';

export interface ListFilter {
  all: boolean;
  group?: string;
  /** A flat status (`exited`, …) or `finished` (any outcome); queued and running are states too. */
  status?: TaskStatus | 'finished';
  /** Only tasks carrying every one of these labels. */
  labels?: Record<string, string>;
  /** Only running tasks that need attention. */
  attention?: boolean;
  /** Newest first (by id); default oldest first. */
  desc?: boolean;
  /** A page of the matching tasks. */
  offset?: number;
  limit?: number;
}

/** The tasks a list asks for, in its order and page; `total` counts every match (the page aside). */
export function selectTasks(all: Task[], f: ListFilter): { tasks: Task[]; total: number } {
  const matching = all.filter(
    (t) =>
      (f.status ? f.status === t.state || f.status === statusOf(t) : f.all || !isFinished(t)) &&
      (f.group === undefined || groupOf(t) === f.group) &&
      (!f.attention || (t.state === 'running' && t.attention !== undefined)) &&
      Object.entries(f.labels ?? {}).every(([k, v]) => t.labels?.[k] === v),
  );
  const ordered = f.desc ? matching.sort((a, b) => Number(b.id) - Number(a.id)) : matching;
  const start = f.offset ?? 0;
  const tasks = f.offset === undefined && f.limit === undefined ? ordered : ordered.slice(start, f.limit === undefined ? undefined : start + f.limit);
  return { tasks, total: matching.length };
}

/** How many tasks have each status, and how many running ones need attention. */
export function countTasks(tasks: Task[]): Record<TaskStatus | 'attention', number> {
  const c = Object.fromEntries([...TASK_STATUSES, 'attention'].map((k) => [k, 0])) as Record<TaskStatus | 'attention', number>;
  for (const task of tasks) {
    c[statusOf(task)] += 1;
    if (task.state === 'running' && task.attention) c.attention += 1;
  }
  return c;
}
