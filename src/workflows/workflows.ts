/**
 * Workflows: a DAG of tasks submitted together as ordinary tasks linked by `after` (labels
 * `workflow=<id>`, the task's name in the file as its name), with a record in workflows.json naming
 * them. What state each is in is read from the tasks, so a restarted daemon knows it at once.
 */
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { isFinished, type Task } from '../api/tasks.js';
import { topologicalOrder, type RunWorkflowRequest, type WorkflowRecord, type WorkflowView } from '../api/workflows.js';
import { now } from '../clock.js';
import { AppError, diskFullError } from '../errors.js';
import type { Logger } from '../log.js';
import type { TaskEvents } from '../tasks/events.js';
import type { GroupStore } from '../tasks/groups.js';
import type { TaskManager } from '../tasks/manager.js';
import { linkOutput, workflowTaskRequest } from './workflow-submit.js';
import { WorkflowStore } from './workflow-store.js';
import { viewOf } from './workflow-view.js';

export interface WorkflowDeps {
  tasks: TaskManager;
  groups: GroupStore;
  events: TaskEvents;
  log: Logger;
  stateDir: string;
}

const KILL_ROUNDS = 100;
const KILL_STEP_MS = 50;

export class Workflows {
  private readonly store: WorkflowStore;
  private readonly linksDir: string;
  private off: () => void = () => undefined;

  constructor(private readonly d: WorkflowDeps) {
    this.store = new WorkflowStore(join(d.stateDir, 'workflows.json'));
    this.linksDir = join(d.stateDir, 'workflows');
  }

  /** Points each task's output link at its latest attempt (one may have been queued while no daemon ran), then follows new attempts. */
  async start(): Promise<void> {
    // Only a later attempt moves a link: a first attempt's is made when the workflow is submitted.
    this.off = this.d.events.on((e) => {
      const wf = e.task.labels?.['workflow'];
      const record = wf === undefined ? undefined : this.store.get(wf);
      if (e.type !== 'queued' || e.task.retryOf === undefined || e.task.name === null || !record) return;
      if (record.tasks[e.task.name] !== undefined && isNeeded(record.needs, e.task.name)) this.relink(record.id, e.task.name, e.task);
    });
    for (const v of await this.list()) for (const n of v.nodes) if (n.task && isNeeded(this.need(v.id), n.name)) this.relink(v.id, n.name, n.task);
  }

  stop(): void {
    this.off();
  }

  private need(id: string): Record<string, string[]> {
    return this.store.get(id)?.needs ?? {};
  }

  private relink(id: string, name: string, task: Task): void {
    try {
      linkOutput(this.linksDir, id, name, task.outputPath);
    } catch (err) {
      this.d.log.warn({ workflow: id, task: task.id, err: (err as Error).message }, 'could not link a workflow task output');
    }
  }

  private async byId(filter?: string): Promise<Map<string, Task>> {
    const tasks = await this.d.tasks.list({ all: true, ...(filter !== undefined && { labels: { workflow: filter } }) });
    return new Map(tasks.map((t) => [t.id, t]));
  }

  async list(): Promise<WorkflowView[]> {
    const byId = await this.byId();
    return this.store.list().map((r) => viewOf(r, byId));
  }

  async get(id: string): Promise<WorkflowView> {
    const r = this.record(id);
    return viewOf(r, await this.byId(id));
  }

  private record(id: string): WorkflowRecord {
    const r = this.store.get(id);
    if (!r) throw new AppError('not_found', `no workflow ${id} (see \`nightshift workflow list\`)`);
    return r;
  }

  /**
   * Checks every task first (command found, cwd a directory, group known, fields in range), so a
   * workflow is submitted whole or not at all; then submits them in topological order. Its id is
   * saved before any task runs (a restarted daemon never hands it out again), its record only once
   * every task is submitted: a workflow refused on the way (a full disk) is never listed, and the
   * tasks it had submitted are stopped.
   */
  async run(req: RunWorkflowRequest): Promise<WorkflowView> {
    const spec = req.workflow;
    const order = topologicalOrder(Object.fromEntries(Object.entries(spec.tasks).map(([n, t]) => [n, t.needs ?? []])));
    const id = this.store.allocateId();
    // Every task's request first: a workflow with a bad field is refused before anything is written.
    const requests = order.map((name) => workflowTaskRequest(req, name, id, this.linksDir));
    this.d.tasks.checkBatch(requests.map((r) => ({ req: r })));
    const position = new Map(order.map((name, i) => [name, i] as const));
    const record: WorkflowRecord = {
      id,
      name: spec.name ?? null,
      file: req.file ?? null,
      createdAt: now().toISOString(),
      tasks: {},
      needs: Object.fromEntries(Object.entries(spec.tasks).map(([n, t]) => [n, t.needs ?? []])),
      ...(Object.values(spec.tasks).some((t) => t.needsAny) && {
        needsAny: Object.entries(spec.tasks)
          .filter(([, t]) => t.needsAny)
          .map(([n]) => n),
      }),
    };
    await this.store.save();
    const links = join(this.linksDir, id);
    const ids: Record<string, string> = {};
    try {
      try {
        mkdirSync(links, { recursive: true, mode: 0o700 });
      } catch (err) {
        throw diskFullError(err, links);
      }
      const items = requests.map((r, i) => ({
        req: r,
        afterItems: (spec.tasks[order[i] ?? '']?.needs ?? []).map((n) => position.get(n) ?? -1),
      }));
      // Checked whole (commands, cwds, groups) and submitted as one batch: one journal write.
      const tasks = await this.d.tasks.runBatch(items);
      tasks.forEach((task, i) => {
        const name = order[i] as string;
        ids[name] = task.id;
        // A link for each task another one needs (NIGHTSHIFT_OUTPUT_<NAME>): a fan-out makes none.
        if (isNeeded(record.needs, name)) this.relink(id, name, task);
      });
      this.store.put({ ...record, tasks: { ...ids } });
      await this.store.save();
    } catch (err) {
      // Not whole, or not saved: what was submitted is stopped, and no record is kept.
      await this.killTasks(Object.values(ids));
      rmSync(links, { recursive: true, force: true });
      const stopped = Object.keys(ids).length;
      throw new AppError(
        err instanceof AppError ? err.code : 'internal',
        `workflow ${id} was not submitted (${(err as Error).message})${stopped > 0 ? `; the ${stopped} tasks submitted were stopped` : ''}`,
        err,
      );
    }
    this.d.log.info({ workflow: id, tasks: order.length }, 'workflow submitted');
    return this.get(id);
  }

  private async killTasks(ids: string[]): Promise<void> {
    for (const t of ids) await this.d.tasks.kill(t, 'SIGTERM').catch(() => undefined);
  }

  /**
   * Kills its running tasks and the queued ones that could start (nothing of theirs still to run, or
   * `needsAny`); the rest are skipped by the queue as their needs end killed. Answers once all ended
   * (or after a few seconds: a task that ignores SIGTERM is still shown running).
   */
  async kill(id: string): Promise<WorkflowView> {
    const record = this.record(id);
    const before = await this.get(id);
    if (before.state !== 'queued' && before.state !== 'running') return before;
    this.store.put({ ...record, killedAt: now().toISOString() });
    await this.store.save();
    const signalled = new Set<string>();
    for (let round = 0; round < KILL_ROUNDS; round++) {
      const view = await this.get(id);
      const open = view.nodes.filter((n) => n.task && !isFinished(n.task));
      if (open.length === 0) return view;
      const unfinished = new Set(open.map((n) => n.name));
      for (const n of open) {
        if (!n.task || signalled.has(n.task.id)) continue;
        const frontier = n.task.state === 'running' || record.needsAny?.includes(n.name) || !n.needs.some((m) => unfinished.has(m));
        if (!frontier) continue;
        signalled.add(n.task.id);
        await this.d.tasks.kill(n.task.id, 'SIGTERM').catch((err: unknown) => this.d.log.debug({ task: n.task?.id, err }, 'workflow kill'));
      }
      await new Promise((r) => setTimeout(r, KILL_STEP_MS));
    }
    return this.get(id);
  }
}

/** Whether some task of the workflow needs `name` (and so reads its output link). */
function isNeeded(needs: Record<string, string[]>, name: string): boolean {
  return Object.values(needs).some((n) => n.includes(name));
}
