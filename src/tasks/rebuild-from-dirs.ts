/** The task list as the task directories tell it: for a lost state file, or tasks it never listed. */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { now } from '../clock.js';
import { bootId } from '../sys/proc.js';
import { workflowOf } from './outcome.js';
import { parseWrapper, PendingSpawn, RunInfo, TaskMeta, type Entry } from './model.js';

function readJson(file: string): unknown {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}

/**
 * One entry per task directory with a readable meta.json. A task that had started comes back as
 * running with its run info (re-adoption then settles it); one that had not, as queued if its
 * pending spec survived, else lost.
 */
export function rebuildEntries(tasksDir: string, skip: (id: string) => boolean = () => false): Entry[] {
  let names: string[] = [];
  try {
    names = readdirSync(tasksDir);
  } catch {
    return [];
  }
  const entries: Entry[] = [];
  for (const name of names) {
    if (skip(name)) continue;
    const dir = join(tasksDir, name);
    const meta = TaskMeta.safeParse(readJson(join(dir, 'meta.json')));
    if (!meta.success || meta.data.id !== name) continue;
    const m = meta.data;
    const base = {
      ...workflowOf(m),
      id: m.id,
      name: m.name,
      command: m.command,
      cwd: m.cwd,
      createdAt: m.createdAt,
      stallAfterSeconds: m.stallAfterSeconds,
      stdin: m.stdin ? ('open' as const) : ('none' as const),
      outputPath: join(dir, 'output.log'),
      outputBytes: 0,
    };
    const runJson = readJson(join(dir, 'run.json'));
    const run = RunInfo.safeParse(runJson);
    if (run.success) {
      const saved = (runJson as { startedAt?: unknown }).startedAt;
      const startedAt = typeof saved === 'string' ? saved : m.createdAt;
      entries.push({ task: { ...base, state: 'running', ...(run.data.childPid !== undefined ? { pid: run.data.childPid } : {}), startedAt }, run: run.data });
    } else if (wrapperOf(dir)) {
      // Started: its wrapper's file holds what run.json held in earlier releases; the pid, once written.
      const { run, startedAt } = wrapperOf(dir) as { run: RunInfo; startedAt: string };
      entries.push({ task: { ...base, state: 'running', ...(run.childPid !== undefined ? { pid: run.childPid } : {}), startedAt }, run });
    } else if (handedToSpawner(dir)) {
      // Handed to the spawner, not claimed yet: adoption claims it (or finds the wrapper that did meanwhile).
      const run = { wrapperPid: 0, wrapperStart: 0, bootId: bootId(), capBytes: capOf(dir) };
      entries.push({ task: { ...base, state: 'running', startedAt: m.createdAt }, run });
    } else if (PendingSpawn.safeParse(readJson(join(dir, 'spawn.json'))).success) {
      entries.push({ task: { ...base, state: 'queued' } });
    } else {
      entries.push({
        task: {
          ...base,
          state: 'finished',
          endedAt: now().toISOString(),
          outcome: { kind: 'lost', reason: 'state rebuilt: the task never started and its spec is gone' },
        },
      });
    }
  }
  return entries.sort((a, b) => Number(a.task.id) - Number(b.task.id));
}

/** The run info a wrapper's file gives (with the command's pid when it wrote it), and when it started. */
function wrapperOf(dir: string): { run: RunInfo; startedAt: string } | null {
  try {
    const file = join(dir, 'wrapper');
    const w = parseWrapper(readFileSync(file, 'utf8'));
    if (!w) return null;
    const pid = /^([0-9]+)\n$/.exec(readText(join(dir, 'child.pid')));
    return { run: { ...w, ...(pid ? { childPid: Number(pid[1]) } : {}) }, startedAt: statSync(file).mtime.toISOString() };
  } catch {
    return null;
  }
}

function readText(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}

/** A start request written, or a wrapper that claimed the task: it may be running. */
function handedToSpawner(dir: string): boolean {
  return existsSync(join(dir, 'start')) || existsSync(join(dir, 'wrapper'));
}

/** The output cap the start request named (512-byte blocks), when it is still there. */
function capOf(dir: string): number {
  try {
    const m = /^set -- '[^']*' '([0-9]+)'/.exec(readFileSync(join(dir, 'start'), 'utf8'));
    return m ? Number(m[1]) * 512 : 0;
  } catch {
    return 0;
  }
}
