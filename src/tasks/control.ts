/** Acting on a task from outside: signals (`kill`) and stdin (`send`). */
import { unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { statusOf, type SignalName, type Task } from '../api/tasks.js';
import { AppError, isErrno } from '../errors.js';
import type { Logger } from '../log.js';
import { readStat } from '../sys/proc.js';
import type { Entry, RunInfo } from './model.js';
import { endedUnrun, signalNumber } from './outcome.js';
import type { TaskRegistry } from './registry.js';
import { writeStdin } from './stdin.js';

/** What control needs of the task manager. */
export interface ControlContext {
  registry: TaskRegistry;
  log: Logger;
  dir(id: string): string;
  /** The entry, or a `not_found` error. */
  entry(id: string): Entry;
  /** The command's pid (its process group), once the wrapper has written it. */
  resolveChild(id: string): Promise<number | undefined>;
  /** Records a task's end: saved, announced, and the queue moved on. */
  finish(task: Task): Promise<void>;
  /** Input was sent: the task's silence clock starts again. */
  touch(id: string): void;
  /** Saves the registry; a failure is the registry's to report and retry, never the caller's. */
  persist(): Promise<void>;
}

export async function killTask(c: ControlContext, id: string, signal: SignalName): Promise<void> {
  const e = c.entry(id);
  const t = e.task;
  if (t.state === 'queued') {
    const killed = endedUnrun(t, { kind: 'killed', signal, exitCode: 128 + signalNumber(signal), reason: 'killed before it started' });
    await unlink(join(c.dir(id), 'spawn.json')).catch(() => undefined);
    await c.finish(killed);
    return;
  }
  if (t.state !== 'running' || !e.run) {
    throw new AppError('conflict', `task ${id} is not running (it is ${statusOf(t)})`);
  }
  const fresh = c.registry.get(id);
  if (fresh?.run && fresh.task.state === 'running') {
    c.registry.set(fresh.task, { ...fresh.run, killSignal: signal });
  }
  await signalGroup(c, e, signal);
  // A stopped (paused) process sees no signal but SIGKILL until it is continued.
  if (t.paused && signal !== 'SIGSTOP') await signalGroup(c, e, 'SIGCONT');
  c.log.info({ task: id, signal }, 'task signalled');
}

/** Sends `signal` to the task's whole process group: the command and everything it started, not the wrapper. */
export async function signalGroup(c: ControlContext, e: Entry, signal: SignalName): Promise<void> {
  const child = await c.resolveChild(e.task.id);
  // No command pid (its wrapper never got as far): nothing of the task's runs to signal. The
  // wrapper's own group is the spawner's, never to be signalled.
  if (child === undefined) return;
  try {
    process.kill(-child, signal);
  } catch (err) {
    if (!isErrno(err, 'ESRCH')) throw err;
    // Just started: the wrapper records the pid a moment before that process calls setsid, so
    // its group may not exist yet. The process itself does, and has started nothing yet.
    signalIfAlive(child, signal);
  }
}

export async function sendInput(c: ControlContext, id: string, text: string, eof: boolean): Promise<void> {
  const t = c.entry(id).task;
  // --no-stdin first: it holds whatever the task's state, and it is what to change next time.
  if (t.stdin === 'none') throw new AppError('stdin_closed', `task ${id} was started with --no-stdin`);
  if (t.state !== 'running' && t.state !== 'queued') throw new AppError('conflict', `task ${id} is not running (it is ${statusOf(t)})`);
  if (t.stdin === 'closed') throw new AppError('stdin_closed', `stdin of task ${id} was already closed with --eof`);
  if (t.state === 'queued') throw new AppError('conflict', `task ${id} is still queued; send input once it runs`);
  await writeStdin(join(c.dir(id), 'stdin'), Buffer.from(text, 'utf8'), undefined, Date.parse(t.startedAt));
  c.touch(id);
  const cur = c.entry(id);
  if (cur.task.state !== 'running') return;
  const { attention: _cleared, ...rest } = cur.task;
  c.registry.set({ ...rest, stdin: eof ? 'closed' : rest.stdin }, cur.run);
  if (eof) {
    // The wrapper's pid comes with its report, a moment after the start.
    await c.resolveChild(id);
    const run = c.entry(id).run;
    if (run) closeStdin(run);
  }
  await c.persist();
}

function closeStdin(run: RunInfo): void {
  // SIGUSR1 tells the wrapper to drop its writer on the FIFO; with ours closed the task reads EOF.
  const st = readStat(run.wrapperPid);
  if (st && st.startTicks === run.wrapperStart) process.kill(run.wrapperPid, 'SIGUSR1');
}

function signalIfAlive(pid: number, signal: SignalName): void {
  try {
    process.kill(pid, signal);
  } catch (err) {
    if (!isErrno(err, 'ESRCH')) throw err;
  }
}
