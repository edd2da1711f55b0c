/**
 * The command's pid (the leader of the task's process group), which the wrapper reports a fork after
 * its own start, and the signals sent to that group.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { SignalName } from '../api/tasks.js';
import { nowMs } from '../clock.js';
import { isErrno } from '../errors.js';
import { isSameProcessAlive, readStat } from '../sys/proc.js';
import type { TaskContext } from './context.js';
import type { Entry, RunInfo } from './model.js';

/** How long a start waits for the wrapper to name the command's pid (it is a fork away). */
const CHILD_PID_WAIT_MS = 3000;

/** The pid as reported, or undefined when none comes within a few seconds. */
export async function awaitPid(reported: Promise<number | undefined>): Promise<number | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), CHILD_PID_WAIT_MS);
  });
  return Promise.race([reported, late]).finally(() => clearTimeout(timer));
}

/**
 * The command's pid into the task, with the wrapper's when it comes with it (the
 * spawner's report). A short task may have ended (and been settled) meanwhile: its old state is
 * never written back, and undefined is answered.
 */
export function applyChild(c: TaskContext, id: string, childPid: number, wrapper?: { pid: number; start: number }): number | undefined {
  const cur = c.registry.get(id);
  if (!cur || cur.task.state !== 'running' || !cur.run) return undefined;
  const childStart = readStat(childPid)?.startTicks;
  const run: RunInfo = {
    ...cur.run,
    ...(wrapper && { wrapperPid: wrapper.pid, wrapperStart: wrapper.start }),
    childPid,
    ...(childStart !== undefined ? { childStart } : {}),
  };
  c.registry.set({ ...cur.task, pid: childPid }, run);
  return childPid;
}

/**
 * The command's pid (its process group), from the file the wrapper writes: for a task whose pid
 * did not come with its start (re-adopted, or a slow wrapper). Saves the registry when it learns it.
 */
export async function resolveChild(c: TaskContext, id: string): Promise<number | undefined> {
  const deadline = nowMs() + CHILD_PID_WAIT_MS;
  for (;;) {
    const e = c.registry.get(id);
    if (!e || e.task.state !== 'running' || !e.run) return undefined;
    if (e.run.childPid !== undefined) return e.run.childPid;
    if (e.run.wrapperPid === 0) {
      // Its wrapper's report (both pids) is a moment away: the spawner forks it.
      if (nowMs() > deadline) return undefined;
      await sleep(5);
      continue;
    }
    const text = await readFile(join(c.dir(id), 'child.pid'), 'utf8').catch(() => '');
    const m = /^([0-9]+)\n$/.exec(text);
    if (m) {
      const pid = applyChild(c, id, Number(m[1]));
      if (pid !== undefined) await c.persist();
      return pid;
    }
    if (!isSameProcessAlive(e.run.wrapperPid, e.run.wrapperStart) || nowMs() > deadline) return undefined;
    await sleep(5);
  }
}

/** A running task's group is sent `signal` (recorded, so its end says which); a paused one is continued so it sees it. */
export async function signalRunning(c: TaskContext, e: Entry, signal: SignalName): Promise<void> {
  const fresh = c.registry.get(e.task.id);
  if (fresh?.run && fresh.task.state === 'running') {
    c.registry.set(fresh.task, { ...fresh.run, killSignal: signal });
  }
  await signalGroup(c, e, signal);
  // A stopped (paused) process sees no signal but SIGKILL until it is continued.
  if (e.task.state === 'running' && e.task.paused && signal !== 'SIGSTOP') await signalGroup(c, e, 'SIGCONT');
  c.log.info({ task: e.task.id, signal }, 'task signalled');
}

/** Sends `signal` to the task's whole process group: the command and everything it started, not the wrapper. */
export async function signalGroup(c: TaskContext, e: Entry, signal: SignalName): Promise<void> {
  const child = await resolveChild(c, e.task.id);
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

function signalIfAlive(pid: number, signal: SignalName): void {
  try {
    process.kill(pid, signal);
  } catch (err) {
    if (!isErrno(err, 'ESRCH')) throw err;
  }
}
