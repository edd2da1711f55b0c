/**
 * TaskManager through its public API, with no daemon around it: real wrapper processes in a temp
 * NIGHTSHIFT_HOME, the real registry and state file. What the CLI tests see through HTTP is checked
 * here at the source: spawn, exit recording, kill, the queue under maxParallel, and what is on disk
 * (state file, task directory) at each step.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import type { RunRequest, Task, TaskEvent } from '../../src/api/tasks.js';
import { taskJson } from '../../src/api/task-json.js';
import { statusOf } from '../../src/api/task-status.js';
import { ConfigSchema } from '../../src/config.js';
import { AppError } from '../../src/errors.js';
import { resolvePaths, type Paths } from '../../src/paths.js';
import { TaskEvents } from '../../src/tasks/events.js';
import { GroupStore } from '../../src/tasks/groups.js';
import { TaskManager } from '../../src/tasks/manager.js';
import { TaskRegistry } from '../../src/tasks/registry.js';
import { readTaskState } from '../../src/tasks/state-journal.js';
import { until } from '../helpers/daemon.js';

const PATH = process.env.PATH ?? '/usr/bin:/bin';

interface Rig {
  home: string;
  paths: Paths;
  manager: TaskManager;
  events: TaskEvent[];
  /** The state as it is on disk now (the state file with its journal). */
  onDisk: () => { nextId: number; tasks: Array<{ task: Task }> };
  run: (command: string[], extra?: Partial<RunRequest>) => Promise<Task>;
}

const rigs: Array<{ rig: Rig; registry: TaskRegistry }> = [];
afterEach(async () => {
  for (const { rig, registry } of rigs.splice(0)) {
    // Anything still running: its whole process group, by the pid the manager reports.
    for (const t of await rig.manager.list({ all: false })) {
      if (t.state === 'queued') await rig.manager.kill(t.id, 'SIGKILL');
      if (t.state !== 'running' || t.pid === undefined) continue;
      try {
        process.kill(-t.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
    // Their exits settled and the last state write done before the directory goes.
    await until(async () => (await rig.manager.list({ all: false })).length === 0);
    await rig.manager.stop();
    await registry.close(); // the last save, and the journal's file handle
    rmSync(rig.home, { recursive: true, force: true });
  }
});

async function rig(config: Record<string, unknown> = {}): Promise<Rig> {
  const home = mkdtempSync('/tmp/ns-mgr-');
  const paths = resolvePaths({ NIGHTSHIFT_HOME: home });
  const registry = await TaskRegistry.open(paths.stateFile);
  const bus = new TaskEvents();
  const events: TaskEvent[] = [];
  bus.on((e) => events.push(e));
  const parsed = ConfigSchema.parse(config);
  const groups = await GroupStore.open(paths.stateDir, () => manager.maxParallel);
  const manager = new TaskManager({ paths, config: parsed, log: pino({ level: 'silent' }), registry, events: bus, groups });
  await manager.startUp();
  const r: Rig = {
    home,
    paths,
    manager,
    events,
    onDisk: () => readTaskState(paths.stateFile).data,
    run: (command, extra = {}) => manager.run({ command, cwd: home, env: { PATH }, stdin: false, ...extra }),
  };
  rigs.push({ rig: r, registry });
  return r;
}

const readIfThere = (file: string): string => (existsSync(file) ? readFileSync(file, 'utf8') : '');
/** The task on disk as the API would print it (flat status beside state and outcome). */
const statusOnDisk = (r: Rig, id: string) => {
  const t = r.onDisk().tasks.find((e) => e.task.id === id)?.task;
  return t && taskJson(t);
};
const typesOf = (r: Rig, id: string) => r.events.filter((e) => e.task.id === id).map((e) => e.type);

describe('TaskManager', () => {
  it('spawns a task: ids count up, meta.json and the state file are written before run returns', async () => {
    const r = await rig();
    const a = await r.run(['sh', '-c', 'echo out; echo err >&2'], { name: 'first' });
    // Durable before the caller hears of it: the state file already lists the task.
    expect(statusOnDisk(r, a.id)).toMatchObject({ id: '1', name: 'first', command: ['sh', '-c', 'echo out; echo err >&2'] });
    expect(r.onDisk().nextId).toBe(2);
    const meta = JSON.parse(readFileSync(join(r.paths.tasksDir, '1', 'meta.json'), 'utf8'));
    expect(meta).toMatchObject({ id: '1', name: 'first', command: ['sh', '-c', 'echo out; echo err >&2'], cwd: r.home, stdin: false });
    expect(['running', 'exited']).toContain(statusOf(a)); // it may be over already
    expect(a.outputPath).toBe(join(r.paths.tasksDir, '1', 'output.log'));
    const b = await r.run(['true']);
    expect(b.id).toBe('2');
    const done = await r.manager.wait(a.id, 10_000);
    expect(done.timedOut).toBe(false);
    expect(readFileSync(a.outputPath, 'utf8')).toBe('out\nerr\n');
    await until(() => typesOf(r, a.id).length === 2); // wait may answer while the end is being committed
    expect(typesOf(r, a.id)).toEqual(['started', 'exited']);
  });

  it('records the exit: code, output size, times; the exit file and the state file agree', async () => {
    const r = await rig();
    const t = await r.run(['sh', '-c', 'printf 12345; exit 3']);
    const { task } = await r.manager.wait(t.id, 10_000);
    expect(taskJson(task)).toMatchObject({ status: 'exited', exitCode: 3, outputBytes: 5, stdin: 'none' });
    if (task.state !== 'finished') throw new Error(task.state);
    expect(Date.parse(task.endedAt)).toBeGreaterThanOrEqual(Date.parse(task.startedAt ?? ''));
    expect(readFileSync(join(r.paths.tasksDir, t.id, 'exit'), 'utf8').trim()).toBe('3');
    await until(() => statusOnDisk(r, t.id)?.state !== 'running'); // the commit of the end may still be in flight
    expect(statusOnDisk(r, t.id)).toMatchObject({ status: 'exited', exitCode: 3, outputBytes: 5 });
    // A command that dies of a signal is reported killed, as a shell would.
    const s = await r.run(['sh', '-c', 'kill -TERM $$']);
    expect(taskJson((await r.manager.wait(s.id, 10_000)).task)).toMatchObject({ status: 'killed', signal: 'SIGTERM', exitCode: 143 });
  });

  it('refuses what cannot start with an error value naming it, and claims no id', async () => {
    const r = await rig();
    await expect(r.run(['no-such-command-xyz'])).rejects.toMatchObject({
      name: 'AppError',
      message: expect.stringMatching(/command not found: no-such-command-xyz/),
    });
    await expect(r.run(['true'], { cwd: '/definitely/not/here' })).rejects.toBeInstanceOf(AppError);
    expect((await r.run(['true'])).id).toBe('1');
  });

  it('kills the whole process group; wait reports the signal', async () => {
    const r = await rig();
    const t = await r.run(['sh', '-c', 'sleep 300 & sleep 300 & echo up; wait']);
    const running = await until(async () => {
      const cur = await r.manager.get(t.id);
      const childPid = Number(readIfThere(join(r.paths.tasksDir, t.id, 'child.pid')));
      // Once the wrapper has written the command's pid, the task reports it (not the wrapper's).
      return cur.state === 'running' && cur.outputBytes > 0 && childPid > 0 && cur.pid === childPid && cur;
    });
    const pgid = Number(running.pid);
    expect(() => process.kill(-pgid, 0)).not.toThrow();
    await r.manager.kill(t.id, 'SIGKILL');
    const { task } = await r.manager.wait(t.id, 10_000);
    expect(taskJson(task)).toMatchObject({ status: 'killed', signal: 'SIGKILL', exitCode: 137 });
    await until(() => statusOnDisk(r, t.id)?.state !== 'running');
    expect(statusOnDisk(r, t.id)).toMatchObject({ status: 'killed', signal: 'SIGKILL' });
    // The sleeps were in the group too: nothing of it is left.
    await until(() => {
      try {
        process.kill(-pgid, 0);
        return false;
      } catch (err) {
        return (err as NodeJS.ErrnoException).code === 'ESRCH';
      }
    });
    await expect(r.manager.kill(t.id, 'SIGTERM')).rejects.toMatchObject({ code: 'conflict' });
  });

  it('a kill sent the moment run returns is never lost (the group may not exist yet)', async () => {
    const r = await rig();
    // The window is a few ms per task (pid recorded, setsid not called yet): 1 in ~20 fell into it.
    for (let i = 0; i < 40; i++) {
      const t = await r.run(['sleep', '30']);
      await r.manager.kill(t.id, 'SIGTERM');
      const { task, timedOut } = await r.manager.wait(t.id, 3000);
      expect({ i, timedOut, status: statusOf(task) }).toEqual({ i, timedOut: false, status: 'killed' });
    }
  });

  it('queues beyond maxParallel, starts the oldest when one ends, and never runs more than maxParallel', async () => {
    const r = await rig({ maxParallel: 2 });
    const gate = join(r.home, 'go');
    const log = join(r.home, 'log');
    // Each task notes when its command starts and ends in a shared log (O_APPEND: lines never mix).
    const blocked = ['sh', '-c', `echo "start $N" >> ${log}; while [ ! -e ${gate} ]; do sleep 0.02; done; echo "end $N" >> ${log}; echo done`];
    const tasks: Task[] = [];
    for (let i = 0; i < 5; i++) tasks.push(await r.run(blocked, { env: { PATH, N: String(i) } }));
    expect(tasks.map((t) => statusOf(t))).toEqual(['running', 'running', 'queued', 'queued', 'queued']);
    // A queued task keeps its start spec (its environment) on disk, 0600, and nothing else runs for it.
    const spec = join(r.paths.tasksDir, tasks[2]!.id, 'spawn.json');
    expect(JSON.parse(readFileSync(spec, 'utf8'))).toEqual({ env: { PATH, N: '2' } });
    expect(statusOnDisk(r, tasks[2]!.id)?.status).toBe('queued');
    // Killing a queued task ends it without starting it.
    const killed = await r.manager.kill(tasks[3]!.id, 'SIGTERM');
    expect(taskJson(killed)).toMatchObject({ status: 'killed', reason: 'killed before it started' });
    expect(existsSync(join(r.paths.tasksDir, tasks[3]!.id, 'spawn.json'))).toBe(false);
    // Both running commands have started (on a loaded machine a shell may start after this point:
    // opening the gate first would let it end before the other started, and hide an overlap).
    await until(
      () =>
        existsSync(log) &&
        readFileSync(log, 'utf8')
          .split('\n')
          .filter((l) => l.startsWith('start')).length === 2,
    );
    writeFileSync(gate, '');
    for (const t of tasks) await r.manager.wait(t.id, 15_000);
    const final = await Promise.all(tasks.map((t) => r.manager.get(t.id)));
    expect(final.map((t) => statusOf(t))).toEqual(['exited', 'exited', 'exited', 'killed', 'exited']);
    expect(readFileSync(final[4]!.outputPath, 'utf8')).toBe('done\n');
    // Started in id order, and never more than two commands running at once (by what they logged).
    expect(r.events.filter((e) => e.type === 'started').map((e) => e.task.id)).toEqual(['1', '2', '3', '5']);
    let runningNow = 0;
    let most = 0;
    for (const line of readFileSync(log, 'utf8').trim().split('\n')) {
      runningNow += line.startsWith('start') ? 1 : -1;
      most = Math.max(most, runningNow);
    }
    expect(most).toBe(2);
    expect(readFileSync(log, 'utf8').match(/start/g)).toHaveLength(4);
    expect(r.manager.counts()).toMatchObject({ running: 0, queued: 0, exited: 4, killed: 1 });
  });

  it('delivers stdin, closes it on eof, and records the closed stdin', async () => {
    const r = await rig();
    const t = await r.run(['sh', '-c', 'read a; echo "got $a"; cat; echo "[eof]"'], { stdin: true });
    expect(t.stdin).toBe('open');
    await r.manager.input(t.id, 'one\n', false);
    await r.manager.input(t.id, 'two\n', true);
    const { task } = await r.manager.wait(t.id, 10_000);
    expect(taskJson(task)).toMatchObject({ status: 'exited', exitCode: 0, stdin: 'closed' });
    expect(readFileSync(task.outputPath, 'utf8')).toBe('got one\ntwo\n[eof]\n');
    await expect(r.manager.input(t.id, 'late', false)).rejects.toMatchObject({ code: 'conflict' });
  });

  it('removes a finished task from the state file and the disk, refuses a running one', async () => {
    const r = await rig();
    const busy = await r.run(['sleep', '30']);
    await expect(r.manager.remove(busy.id)).rejects.toMatchObject({ code: 'conflict' });
    await r.manager.kill(busy.id, 'SIGTERM');
    await r.manager.wait(busy.id, 10_000);
    await r.manager.remove(busy.id);
    expect(statusOnDisk(r, busy.id)).toBeUndefined();
    expect(existsSync(join(r.paths.tasksDir, busy.id))).toBe(false);
    expect(typesOf(r, busy.id)).toEqual(['started', 'exited', 'removed']);
    await expect(r.manager.get(busy.id)).rejects.toMatchObject({ code: 'not_found' });
  });
});
