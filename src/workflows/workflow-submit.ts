/**
 * One task of a workflow as a `run` request, and the output links that chain them: each task gets
 * NIGHTSHIFT_WORKFLOW=<id> and, per task it needs, NIGHTSHIFT_OUTPUT_<NAME> = a link
 * `<state>/workflows/<id>/<name>.log` to that task's output.log. The link follows retries (it is
 * moved to each new attempt), so a step always reads the attempt that decided its need.
 */
import { renameSync, symlinkSync, unlinkSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { RunRequest } from '../api/tasks.js';
import { durationSeconds, outputVariable, type RunWorkflowRequest } from '../api/workflows.js';
import { AppError } from '../errors.js';

export function outputLink(linksDir: string, id: string, name: string): string {
  return join(linksDir, id, `${name}.log`);
}

/** Points the link at `target`, replacing what was there in one step (a reader sees the old link or the new). */
export function linkOutput(linksDir: string, id: string, name: string, target: string): void {
  const link = outputLink(linksDir, id, name);
  const tmp = `${link}.${process.pid}.tmp`;
  try {
    unlinkSync(tmp);
  } catch {
    // none left over
  }
  symlinkSync(target, tmp);
  renameSync(tmp, link);
}

/** The `run` request of task `name` (its `after` is added once its needs have ids); a `bad_request` naming the task when a value is out of range. */
export function workflowTaskRequest(req: RunWorkflowRequest, name: string, id: string, linksDir: string): Omit<RunRequest, 'after'> {
  const t = req.workflow.tasks[name];
  if (!t) throw new AppError('internal', `workflow task ${name} vanished`);
  const base = req.file !== undefined ? dirname(req.file) : req.cwd;
  const chained = Object.fromEntries((t.needs ?? []).map((n) => [outputVariable(n), outputLink(linksDir, id, n)]));
  const candidate = {
    command: typeof t.command === 'string' ? [t.command] : t.command,
    name,
    cwd: resolve(base, t.cwd ?? '.'),
    env: { ...(req.env ?? {}), ...(t.env ?? {}), NIGHTSHIFT_WORKFLOW: id, ...chained },
    stdin: false,
    labels: { ...(t.labels ?? {}), workflow: id },
    ...(t.needsAny && { afterAny: true }),
    ...(t.group !== undefined && { group: t.group }),
    ...(t.timeout !== undefined && { timeoutSeconds: durationSeconds(t.timeout) }),
    ...(t.retry !== undefined && { retry: t.retry }),
    ...(t.retryDelay !== undefined && { retryDelaySeconds: durationSeconds(t.retryDelay) }),
    ...(t.stall !== undefined && { stallAfterSeconds: durationSeconds(t.stall) }),
  };
  const r = RunRequest.safeParse(candidate);
  if (!r.success) {
    const detail = r.error.issues
      .slice(0, 3)
      .map((i) => `${i.path.join('.')}: ${i.message}`)
      .join('; ');
    throw new AppError('bad_request', `tasks.${name}: ${detail}`);
  }
  const { after: _after, ...rest } = r.data;
  return rest;
}
