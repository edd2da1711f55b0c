/** Pausing and resuming a running task (SIGSTOP / SIGCONT to its whole process group), and its deadline. */
import type { Task } from '../api/tasks.js';
import { now, nowMs } from '../clock.js';
import { AppError } from '../errors.js';
import { killTask, signalGroup, type ControlContext } from './control.js';
import type { RunInfo } from './model.js';

/** A timed-out task gets this long after SIGTERM before SIGKILL. */
export const TIMEOUT_GRACE_MS = 2000;

function running(c: ControlContext, id: string) {
  const e = c.entry(id);
  if (e.task.status !== 'running' || !e.run) throw new AppError('conflict', `task ${id} is not running (it is ${e.task.status})`);
  return { task: e.task, run: e.run, entry: e };
}

export async function pauseTask(c: ControlContext, id: string): Promise<void> {
  const { task, entry } = running(c, id);
  if (task.paused) return;
  await signalGroup(c, entry, 'SIGSTOP');
  const cur = c.registry.get(id);
  if (cur?.task.status !== 'running') return;
  // A paused task is silent on purpose: no attention while it is stopped.
  const { attention: _cleared, ...rest } = cur.task;
  // Since when, kept with its run info: its --timeout deadline moves by the paused time (see deadlines.ts).
  const run = cur.run && { ...cur.run, pausedAt: now().toISOString() };
  c.registry.set({ ...rest, paused: true }, run);
  c.log.info({ task: id }, 'task paused');
  await c.persist();
}

export async function resumeTask(c: ControlContext, id: string): Promise<void> {
  const { task, entry } = running(c, id);
  if (!task.paused) return;
  await signalGroup(c, entry, 'SIGCONT');
  const cur = c.registry.get(id);
  if (cur?.task.status !== 'running') return;
  const { paused: _was, ...rest } = cur.task;
  c.registry.set(rest, cur.run && resumedRun(cur.run));
  // Its silence clock starts again from now, not from when it was stopped.
  c.touch(id);
  c.log.info({ task: id }, 'task resumed');
  await c.persist();
}

/** The run info of a resumed task: the pause just over is added to its paused time. */
function resumedRun(run: RunInfo): RunInfo {
  const { pausedAt, ...rest } = run;
  if (pausedAt === undefined) return run;
  return { ...rest, pausedMs: (run.pausedMs ?? 0) + Math.max(0, nowMs() - Date.parse(pausedAt)) };
}

/** The deadline of `run --timeout` passed: marked (so its end is `timed_out`), SIGTERM, then SIGKILL after a grace. */
export async function timeOutTask(c: ControlContext, id: string): Promise<void> {
  const e = c.registry.get(id);
  if (!e || e.task.status !== 'running' || !e.run || e.run.timedOutAt) return;
  c.registry.set(e.task, { ...e.run, timedOutAt: now().toISOString() });
  await c.persist();
  c.log.info({ task: id, seconds: e.task.timeoutSeconds }, 'task timed out');
  await killTask(c, id, 'SIGTERM');
  const timer = setTimeout(() => {
    const cur = c.registry.get(id);
    if (cur?.task.status === 'running') killTask(c, id, 'SIGKILL').catch((err: unknown) => c.log.warn({ task: id, err }, 'SIGKILL after the timeout failed'));
  }, TIMEOUT_GRACE_MS);
  timer.unref();
}

/** The reason a timed-out task carries. */
export const timeoutReason = (t: Task): string => `timed out after ${t.timeoutSeconds ?? '?'}s`;
