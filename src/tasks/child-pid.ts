/** The command's pid (the leader of the task's process group), which the wrapper reports a fork after its own start. */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { nowMs } from '../clock.js';
import type { Logger } from '../log.js';
import { isSameProcessAlive, readStat } from '../sys/proc.js';
import type { RunInfo } from './model.js';
import type { TaskRegistry } from './registry.js';

/** How long a start waits for the wrapper to name the command's pid (it is a fork away). */
const CHILD_PID_WAIT_MS = 3000;

export interface ChildContext {
  registry: TaskRegistry;
  log: Logger;
  dir(id: string): string;
  persist(): Promise<void>;
}

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
export function applyChild(c: ChildContext, id: string, childPid: number, wrapper?: { pid: number; start: number }): number | undefined {
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
export async function resolveChild(c: ChildContext, id: string): Promise<number | undefined> {
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
