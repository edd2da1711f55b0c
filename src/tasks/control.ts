/**
 * Acting on a task from outside: signals (`kill`), stdin (`send`), and pausing and resuming (SIGSTOP
 * / SIGCONT to its whole process group). A pause or resume is kept (on disk) or refused: a save that
 * fails (a full disk) signals the task back and puts its entry back as it was, and the caller gets
 * the error.
 */
import { unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { statusOf, type SignalName } from '../api/tasks.js';
import { now, nowMs } from '../clock.js';
import { AppError } from '../errors.js';
import { readStat } from '../sys/proc.js';
import type { TaskContext } from './context.js';
import type { Entry, RunInfo } from './model.js';
import { endedUnrun, signalNumber } from './outcome.js';
import { resolveChild, signalGroup, signalRunning } from './process-group.js';
import type { TaskRunner } from './runner.js';
import { writeStdin } from './stdin.js';

export class TaskControl {
  constructor(
    private readonly c: TaskContext,
    private readonly runner: TaskRunner,
  ) {}

  async kill(id: string, signal: SignalName): Promise<void> {
    const e = this.c.entry(id);
    const t = e.task;
    if (t.state === 'queued') {
      const killed = endedUnrun(t, { kind: 'killed', signal, exitCode: 128 + signalNumber(signal), reason: 'killed before it started' });
      await unlink(join(this.c.dir(id), 'spawn.json')).catch(() => undefined);
      await this.runner.finish(killed);
      return;
    }
    if (t.state !== 'running' || !e.run) {
      throw new AppError('conflict', `task ${id} is not running (it is ${statusOf(t)})`);
    }
    await signalRunning(this.c, e, signal);
  }

  async input(id: string, text: string, eof: boolean): Promise<void> {
    const c = this.c;
    const t = c.entry(id).task;
    // --no-stdin first: it holds whatever the task's state, and it is what to change next time.
    if (t.stdin === 'none') throw new AppError('stdin_closed', `task ${id} was started with --no-stdin`);
    if (t.state !== 'running' && t.state !== 'queued') throw new AppError('conflict', `task ${id} is not running (it is ${statusOf(t)})`);
    if (t.stdin === 'closed') throw new AppError('stdin_closed', `stdin of task ${id} was already closed with --eof`);
    if (t.state === 'queued') throw new AppError('conflict', `task ${id} is still queued; send input once it runs`);
    await writeStdin(join(c.dir(id), 'stdin'), Buffer.from(text, 'utf8'), undefined, Date.parse(t.startedAt));
    // Input was sent: the task's silence clock starts again.
    this.runner.stall.touch(id);
    const cur = c.entry(id);
    if (cur.task.state !== 'running') return;
    const { attention: _cleared, ...rest } = cur.task;
    c.registry.set({ ...rest, stdin: eof ? 'closed' : rest.stdin }, cur.run);
    if (eof) {
      // The wrapper's pid comes with its report, a moment after the start.
      await resolveChild(c, id);
      const run = c.entry(id).run;
      if (run) closeStdin(run);
    }
    await c.persist();
  }

  async pause(id: string): Promise<void> {
    const { task, entry } = this.running(id);
    if (!task.paused) {
      await signalGroup(this.c, entry, 'SIGSTOP');
      const cur = this.c.registry.get(id);
      if (cur?.task.state !== 'running') return;
      // A paused task is silent on purpose: no attention while it is stopped.
      const { attention: _cleared, ...rest } = cur.task;
      // Since when, kept with its run info: its --timeout deadline moves by the paused time (see deadlines.ts).
      const run = cur.run && { ...cur.run, pausedAt: now().toISOString() };
      this.c.registry.set({ ...rest, paused: true }, run);
      await this.keepOrUndo(cur, 'SIGCONT');
      this.c.log.info({ task: id }, 'task paused');
    }
    this.runner.rearm(id);
  }

  async resume(id: string): Promise<void> {
    const { task, entry } = this.running(id);
    if (task.paused) {
      await signalGroup(this.c, entry, 'SIGCONT');
      const cur = this.c.registry.get(id);
      if (cur?.task.state !== 'running') return;
      const { paused: _was, ...rest } = cur.task;
      this.c.registry.set(rest, cur.run && resumedRun(cur.run));
      await this.keepOrUndo(cur, 'SIGSTOP');
      // Its silence clock starts again from now, not from when it was stopped.
      this.runner.stall.touch(id);
      this.c.log.info({ task: id }, 'task resumed');
    }
    this.runner.rearm(id);
  }

  private running(id: string) {
    const e = this.c.entry(id);
    if (e.task.state !== 'running' || !e.run) throw new AppError('conflict', `task ${id} is not running (it is ${statusOf(e.task)})`);
    return { task: e.task, run: e.run, entry: e };
  }

  /** Saves the change; when that fails, the entry as it was (`before`) comes back, and the signal that undoes the change goes out. */
  private async keepOrUndo(before: Entry, undo: 'SIGCONT' | 'SIGSTOP'): Promise<void> {
    try {
      await this.c.registry.commit();
    } catch (err) {
      // The registry retries its save in the background: what it then writes is this entry again.
      const current = this.c.registry.get(before.task.id);
      if (current?.task.state === 'running') {
        this.c.registry.set(before.task, before.run);
        await signalGroup(this.c, before, undo);
      }
      throw err;
    }
  }
}

/** The run info of a resumed task: the pause just over is added to its paused time. */
function resumedRun(run: RunInfo): RunInfo {
  const { pausedAt, ...rest } = run;
  if (pausedAt === undefined) return run;
  return { ...rest, pausedMs: (run.pausedMs ?? 0) + Math.max(0, nowMs() - Date.parse(pausedAt)) };
}

function closeStdin(run: RunInfo): void {
  // SIGUSR1 tells the wrapper to drop its writer on the FIFO; with ours closed the task reads EOF.
  const st = readStat(run.wrapperPid);
  if (st && st.startTicks === run.wrapperStart) process.kill(run.wrapperPid, 'SIGUSR1');
}
