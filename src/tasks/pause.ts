/**
 * Pausing and resuming a running task (SIGSTOP / SIGCONT to its whole process group), and its
 * deadline. Either is kept (on disk) or refused: a save that fails (a full disk) signals the task
 * back and puts its entry back as it was, and the caller gets the error.
 */
import { statusOf, type Task } from '../api/tasks.js';
import { now, nowMs } from '../clock.js';
import { AppError } from '../errors.js';
import { killTask, signalGroup, type ControlContext } from './control.js';
import type { Entry, RunInfo } from './model.js';

/** A timed-out task gets this long after SIGTERM before SIGKILL. */
export const TIMEOUT_GRACE_MS = 2000;

function running(c: ControlContext, id: string) {
  const e = c.entry(id);
  if (e.task.state !== 'running' || !e.run) throw new AppError('conflict', `task ${id} is not running (it is ${statusOf(e.task)})`);
  return { task: e.task, run: e.run, entry: e };
}

export async function pauseTask(c: ControlContext, id: string): Promise<void> {
  const { task, entry } = running(c, id);
  if (task.paused) return;
  await signalGroup(c, entry, 'SIGSTOP');
  const cur = c.registry.get(id);
  if (cur?.task.state !== 'running') return;
  // A paused task is silent on purpose: no attention while it is stopped.
  const { attention: _cleared, ...rest } = cur.task;
  // Since when, kept with its run info: its --timeout deadline moves by the paused time (see deadlines.ts).
  const run = cur.run && { ...cur.run, pausedAt: now().toISOString() };
  c.registry.set({ ...rest, paused: true }, run);
  await keepOrUndo(c, cur, 'SIGCONT');
  c.log.info({ task: id }, 'task paused');
}

export async function resumeTask(c: ControlContext, id: string): Promise<void> {
  const { task, entry } = running(c, id);
  if (!task.paused) return;
  await signalGroup(c, entry, 'SIGCONT');
  const cur = c.registry.get(id);
  if (cur?.task.state !== 'running') return;
  const { paused: _was, ...rest } = cur.task;
  c.registry.set(rest, cur.run && resumedRun(cur.run));
  await keepOrUndo(c, cur, 'SIGSTOP');
  // Its silence clock starts again from now, not from when it was stopped.
  c.touch(id);
  c.log.info({ task: id }, 'task resumed');
}

/** Saves the change; when that fails, the entry as it was (`before`) comes back, and the signal that undoes the change goes out. */
async function keepOrUndo(c: ControlContext, before: Entry, undo: 'SIGCONT' | 'SIGSTOP'): Promise<void> {
  try {
    await c.registry.commit();
  } catch (err) {
    // The registry retries its save in the background: what it then writes is this entry again.
    const current = c.registry.get(before.task.id);
    if (current?.task.state === 'running') {
      c.registry.set(before.task, before.run);
      await signalGroup(c, before, undo);
    }
    throw err;
  }
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
  if (!e || e.task.state !== 'running' || !e.run || e.run.timedOutAt) return;
  c.registry.set(e.task, { ...e.run, timedOutAt: now().toISOString() });
  await c.persist();
  c.log.info({ task: id, seconds: e.task.timeoutSeconds }, 'task timed out');
  await killTask(c, id, 'SIGTERM');
  const timer = setTimeout(() => {
    const cur = c.registry.get(id);
    if (cur?.task.state === 'running') killTask(c, id, 'SIGKILL').catch((err: unknown) => c.log.warn({ task: id, err }, 'SIGKILL after the timeout failed'));
  }, TIMEOUT_GRACE_MS);
  timer.unref();
}

/** The reason a timed-out task carries. */
export const timeoutReason = (t: Task): string => `timed out after ${t.timeoutSeconds ?? '?'}s`;
