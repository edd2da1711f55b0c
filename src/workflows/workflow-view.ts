/** A workflow as `GET /v1/workflows/:id` shows it: its record plus each task's state, derived from the tasks (the latest attempt decides). Pure. */
import { endedAs, type Task } from '../api/tasks.js';
import type { WorkflowNode, WorkflowRecord, WorkflowView } from '../api/workflows.js';

/** The last attempt of a task that was retried, and how many attempts there were. */
export function latestAttempt(id: string, byId: ReadonlyMap<string, Task>): { task: Task | undefined; attempts: number } {
  let t = byId.get(id);
  let attempts = t ? 1 : 0;
  while (t?.retriedBy !== undefined && byId.has(t.retriedBy) && attempts < 1000) {
    t = byId.get(t.retriedBy);
    attempts += 1;
  }
  return { task: t, attempts };
}

function nodeState(t: Task | undefined): WorkflowNode['state'] {
  if (!t) return 'failed';
  if (t.state !== 'finished') return t.state;
  if (t.outcome.kind === 'skipped') return 'skipped';
  return endedAs(t, 'exited')?.exitCode === 0 ? 'succeeded' : 'failed';
}

/** Longest chain of needs above each name. */
export function depths(needs: Record<string, readonly string[]>): Map<string, number> {
  const out = new Map<string, number>();
  const depth = (n: string, guard: number): number => {
    const known = out.get(n);
    if (known !== undefined) return known;
    const d = guard > 1000 ? 0 : Math.max(-1, ...(needs[n] ?? []).map((m) => depth(m, guard + 1))) + 1;
    out.set(n, d);
    return d;
  };
  for (const n of Object.keys(needs)) depth(n, 0);
  return out;
}

/**
 * A task of the file the record names no task for was never submitted (a record saved before all
 * were, as earlier builds did, then refused or cut off): it shows as failed, without a task, so
 * such a workflow is failed, never succeeded 0/0.
 */
export function viewOf(record: WorkflowRecord, byId: ReadonlyMap<string, Task>): WorkflowView {
  const depth = depths(record.needs);
  const names = [...Object.keys(record.tasks), ...Object.keys(record.needs).filter((n) => record.tasks[n] === undefined)];
  const nodes: WorkflowNode[] = names.map((name) => {
    const id = record.tasks[name];
    const { task, attempts } = id === undefined ? { task: undefined, attempts: 0 } : latestAttempt(id, byId);
    return {
      name,
      state: nodeState(task),
      needs: record.needs[name] ?? [],
      depth: depth.get(name) ?? 0,
      attempts,
      ...(task && { task }),
    };
  });
  return { ...record, state: overall(record, nodes), nodes };
}

function overall(record: WorkflowRecord, nodes: WorkflowNode[]): WorkflowView['state'] {
  if (nodes.some((n) => n.state === 'queued' || n.state === 'running')) return nodes.every((n) => n.state === 'queued') ? 'queued' : 'running';
  if (nodes.every((n) => n.state === 'succeeded')) return 'succeeded';
  return record.killedAt !== undefined ? 'killed' : 'failed';
}
