/**
 * "Refused" means "not kept": on a full disk (a real 2 MiB tmpfs under the state directory; root
 * only, skipped with the reason otherwise) a command that writes state either keeps the change (on
 * disk, and live) or exits 74 naming ENOSPC and the file, with nothing of the change live in the
 * daemon and nothing of it written once there is room again, nor after a restart.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createServer, connect } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import type { Memory } from '../../src/api/memory.js';
import type { Monitor } from '../../src/api/monitors.js';
import type { ScheduleView } from '../../src/api/schedules.js';
import type { TaskJson as Task } from '../../src/api/tasks.js';
import type { WorkflowView } from '../../src/api/workflows.js';
import { reply, startFakeAnthropic, toolUse } from '../fakes/anthropic.js';
import { readTaskState } from '../../src/tasks/state-journal.js';
import { TestDaemon, until } from '../helpers/daemon.js';
import { cleanupFullDisk, EXIT_DISK_FULL, fill, fullDiskDaemon } from '../helpers/full-disk.js';

const daemons: TestDaemon[] = [];
afterEach(() => cleanupFullDisk(daemons));

const json = async <T>(d: TestDaemon, args: string[]): Promise<T> => {
  const r = await d.cli([...args, '--json']);
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as T;
};
const schedules = (d: TestDaemon) => json<ScheduleView[]>(d, ['schedule', 'list']);
const workflows = (d: TestDaemon) => json<WorkflowView[]>(d, ['workflow', 'list']);
const tasks = (d: TestDaemon) => json<Task[]>(d, ['ps', '--all']);
const onDisk = (file: string): string => (existsSync(file) ? readFileSync(file, 'utf8') : '');

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const sock = connect(port, '127.0.0.1');
    sock.once('connect', () => {
      sock.destroy();
      resolve(true);
    });
    sock.once('error', () => resolve(false));
  });
}

function refused(r: { code: number; stderr: string }, file: string): void {
  expect(r.code, r.stderr).toBe(EXIT_DISK_FULL);
  expect(r.stderr).toContain('ENOSPC');
  expect(r.stderr).toContain(file);
}

describe('on a full disk, a refused command leaves nothing behind', () => {
  it('schedule add: refused, not listed, never fires, and not written once there is room; rm and pause refused leave the schedule as it was', async (ctx) => {
    const d = await fullDiskDaemon(ctx, daemons);
    const file = join(d.paths.stateDir, 'schedules.json');
    const kept = await d.cli(['schedule', 'add', '0 3 * * *', '--name', 'nightly', '--', 'true']);
    expect(kept.code, kept.stderr).toBe(0);
    const filler = fill(d);

    refused(await d.cli(['schedule', 'add', '*/2 * * * * *', '--name', 'ticker', '--', 'true']), file);
    expect((await schedules(d)).map((s) => s.name)).toEqual(['nightly']);
    refused(await d.cli(['schedule', 'rm', 'nightly']), file);
    refused(await d.cli(['schedule', 'pause', 'nightly']), file);
    const [nightly] = await schedules(d);
    expect(nightly).toMatchObject({ name: 'nightly', paused: false });
    expect(nightly?.next.length).toBe(5);

    // Past two firing times of the refused schedule: no task was started, no firing recorded.
    await sleep(4500);
    expect(await tasks(d)).toEqual([]);
    expect((await schedules(d)).map((s) => s.name)).toEqual(['nightly']);

    // Room again: the next change writes itself, not the refused one; a restart agrees.
    rmSync(filler);
    expect((await d.cli(['schedule', 'add', '0 4 * * *', '--name', 'later', '--', 'true'])).code).toBe(0);
    expect(onDisk(file)).not.toContain('ticker');
    await sleep(2500);
    expect(onDisk(file)).not.toContain('ticker');
    await d.restart();
    expect((await schedules(d)).map((s) => [s.name, s.paused])).toEqual([
      ['nightly', false],
      ['later', false],
    ]);
    expect(await tasks(d)).toEqual([]);
  }, 60_000);

  it('workflow run: refused, no workflow listed, no task started, and not written once there is room', async (ctx) => {
    const d = await fullDiskDaemon(ctx, daemons);
    const file = join(d.paths.stateDir, 'workflows.json');
    const wf = join(d.home, 'wf.yaml');
    writeFileSync(wf, 'tasks:\n  a:\n    command: echo A\n  b:\n    command: echo B\n    needs: [a]\n');
    const filler = fill(d);

    refused(await d.cli(['workflow', 'run', wf]), file);
    expect(await workflows(d)).toEqual([]);
    expect(await tasks(d)).toEqual([]);
    expect((await d.cli(['workflow', 'show', 'w1'])).code).toBe(1);

    rmSync(filler);
    const ran = await d.cli(['workflow', 'run', wf, '--wait']);
    expect(ran.code, ran.stderr).toBe(0);
    const listed = await workflows(d);
    expect(listed.map((w) => [w.state, w.nodes.length])).toEqual([['succeeded', 2]]);
    const saved = JSON.parse(onDisk(file)) as { workflows: { id: string; tasks: Record<string, string> }[] };
    expect(saved.workflows.map((w) => Object.keys(w.tasks).sort())).toEqual([['a', 'b']]);
    await d.restart();
    expect((await workflows(d)).map((w) => [w.id, w.state, w.nodes.length])).toEqual(listed.map((w) => [w.id, w.state, w.nodes.length]));
  }, 60_000);

  it('workflow kill: refused, the workflow runs on unchanged', async (ctx) => {
    const d = await fullDiskDaemon(ctx, daemons);
    const file = join(d.paths.stateDir, 'workflows.json');
    const go = join(d.home, 'go');
    const wf = join(d.home, 'wf.yaml');
    writeFileSync(wf, `tasks:\n  a:\n    command: while [ ! -e ${go} ]; do sleep 0.05; done\n`);
    const ran = await d.cli(['workflow', 'run', wf]);
    expect(ran.code, ran.stderr).toBe(0);
    const id = ran.stdout.trim();
    const filler = fill(d);
    refused(await d.cli(['workflow', 'kill', id]), file);
    const [w] = await workflows(d);
    expect(w).toMatchObject({ id, state: 'running' });
    expect(w?.killedAt).toBeUndefined();
    rmSync(filler);
    writeFileSync(go, '');
    expect((await d.cli(['workflow', 'show', id])).code).toBe(0);
    expect(readdirSync(d.paths.stateDir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  }, 60_000);
});

const taskOnDisk = (d: TestDaemon, id: string) => readTaskState(d.paths.stateFile).data.tasks.find((e) => e.task.id === id)?.task;

/**
 * Runs a task that waits for `go` (outside the state dir), then exits 3; answers once its start is on
 * disk. An unused argument (sh's $0) makes its journal entry larger than a block (4 KiB), so saving
 * its end on a full disk needs a block it cannot have (an append into the last block would fit).
 */
async function gatedTask(d: TestDaemon, go: string): Promise<string> {
  const run = await d.cli(['run', '--', 'sh', '-c', `while [ ! -e ${go} ]; do sleep 0.05; done; exit 3`, 'x'.repeat(5000)]);
  expect(run.code, run.stderr).toBe(0);
  const id = run.stdout.trim();
  await until(() => taskOnDisk(d, id)?.state === 'running', 15_000, 50);
  return id;
}

describe('every other command that writes state, on a full disk', () => {
  it('group add, parallel and rm: refused, the groups stay as they were', async (ctx) => {
    const d = await fullDiskDaemon(ctx, daemons);
    const file = join(d.paths.stateDir, 'groups.json');
    expect((await d.cli(['group', 'add', 'build', '--parallel', '2'])).code).toBe(0);
    const filler = fill(d);
    refused(await d.cli(['group', 'add', 'deploy', '--parallel', '1']), file);
    refused(await d.cli(['group', 'parallel', 'build', '5']), file);
    refused(await d.cli(['group', 'rm', 'build']), file);
    const groups = async () => (await json<{ name: string; parallel: number }[]>(d, ['group', 'list'])).map((g) => [g.name, g.parallel]);
    const before = await groups();
    expect(before.filter(([n]) => n !== 'default')).toEqual([['build', 2]]);
    rmSync(filler);
    await d.restart();
    expect(await groups()).toEqual(before);
  }, 60_000);

  it('memories edit, pin and forget: refused, the memory stays as it was, and is not written so later', async (ctx) => {
    const d = await fullDiskDaemon(ctx, daemons);
    const file = join(d.paths.memoryDir, 'user.json');
    expect((await d.cli(['remember', '--user', 'I prefer tabs over spaces'])).code).toBe(0);
    const [m] = await json<Memory[]>(d, ['memories', 'list']);
    if (!m) throw new Error('no memory');
    const filler = fill(d);
    refused(await d.cli(['memories', 'edit', m.id, 'I prefer spaces over tabs']), file);
    refused(await d.cli(['memories', 'pin', m.id]), file);
    refused(await d.cli(['memories', 'forget', m.id]), file);
    const same = async () => {
      const now = await json<Memory>(d, ['memories', 'show', m.id]);
      expect(now).toMatchObject({ content: m.content, stable: m.stable, importance: m.importance });
      expect(now.archivedAt).toBeUndefined();
    };
    await same();
    rmSync(filler);
    expect((await d.cli(['remember', '--user', 'Use pnpm, not npm'])).code).toBe(0);
    await d.restart();
    await same();
  }, 60_000);

  it('memories reject: refused, the memory is not shown rejected and is injected as before, now and after a restart', async (ctx) => {
    const d = await fullDiskDaemon(ctx, daemons);
    const file = join(d.paths.stateDir, 'injections.jsonl');
    const project = join(d.home, 'proj');
    mkdirSync(project);
    const text = 'Always run the linter before committing.';
    const m = await json<Memory>(d, ['remember', '--user', '--stable', '--type', 'instruction', text]);
    const filler = fill(d);
    refused(await d.cli(['memories', 'reject', m.id, '--project', project]), file);
    expect((await json<Memory>(d, ['memories', 'show', m.id])).rejected).toBeUndefined();
    const start = async (session: string) => {
      const r = await d.cli(['hook', 'session-start'], { input: JSON.stringify({ session_id: session, cwd: project, source: 'startup' }) });
      expect(r.code, r.stderr).toBe(0);
      return r.stdout;
    };
    expect(await start('s1')).toContain(text);
    rmSync(filler);
    expect(onDisk(file)).not.toContain('"reject"');
    await d.restart();
    expect(await start('s2')).toContain(text);
    expect((await json<Memory>(d, ['memories', 'show', m.id])).rejected).toBeUndefined();
  }, 60_000);

  it('ingest: refused, no session listed, and none written once there is room', async (ctx) => {
    const d = await fullDiskDaemon(ctx, daemons);
    const sessions = () => json<{ sessionId: string }[]>(d, ['sessions', 'list']);
    const transcript = (name: string, text: string) => {
      const f = join(d.home, `${name}.jsonl`);
      writeFileSync(f, `${JSON.stringify({ role: 'user', content: text })}\n`);
      return f;
    };
    const filler = fill(d);
    const r = await d.cli(['ingest', transcript('refused', 'Remember that the staging database is called orion.'), '--format', 'messages']);
    expect(r.code, r.stderr).toBe(EXIT_DISK_FULL);
    expect(await sessions()).toEqual([]);
    rmSync(filler);
    expect((await d.cli(['ingest', transcript('kept', 'We always deploy on Tuesdays.'), '--format', 'messages'])).code).toBe(0);
    expect((await sessions()).map((s) => s.sessionId)).toEqual(['kept']);
    await d.restart();
    expect((await sessions()).map((s) => s.sessionId)).toEqual(['kept']);
  }, 60_000);

  it('compact: refused, no compaction requested', async (ctx) => {
    // The agent's first turn runs a command that waits for `gate`; the next one ends it.
    const work = mkdtempSync('/tmp/ns-agent-work-');
    const gate = join(work, 'gate');
    let turns = 0;
    const fake = await startFakeAnthropic({
      defaultStep: () => (++turns === 1 ? reply([toolUse('bash', { command: `while [ ! -e ${gate} ]; do sleep 0.05; done` })]) : reply('Done.')),
    });
    try {
      const env = { ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: 'sk-test-not-a-real-key' };
      const d = await fullDiskDaemon(ctx, daemons, { memory: { extractor: 'heuristic' } }, env);
      const started = await d.cli(['agent', '--cwd', work, '--', 'Wait for the gate.']);
      expect(started.code, started.stderr).toBe(0);
      const id = started.stdout.trim();
      // Its bash tool runs as a task of its own: the agent writes nothing until that ends. Its
      // wrapper has claimed it once it names the command's pid (tasks/spawner covers a claim the
      // full disk refuses).
      await until(async () => (await d.client.list(false)).some((t) => t.id !== id && t.state === 'running' && t.pid !== undefined), 15_000);
      const filler = fill(d);
      const file = join(d.paths.tasksDir, id, 'compact-request');
      refused(await d.cli(['compact', id]), file);
      expect(existsSync(file)).toBe(false);
      const shown = JSON.parse((await d.cli(['show', id, '--json'])).stdout) as { agent?: { compactRequested: boolean } };
      expect(shown.agent?.compactRequested).toBe(false);
      rmSync(filler);
      writeFileSync(gate, '');
      expect((await d.client.wait(id, 30)).task).toMatchObject({ status: 'exited', exitCode: 0 });
    } finally {
      writeFileSync(gate, '');
      await fake.close();
      rmSync(work, { recursive: true, force: true });
    }
  }, 60_000);

  it('pause and resume: refused, the task runs on (or stays paused) as it was', async (ctx) => {
    const d = await fullDiskDaemon(ctx, daemons);
    // An unused argument (sh's $0) makes each save of the task larger than a block (see gatedTask).
    const run = await d.cli(['run', '--', 'sh', '-c', 'sleep 60', 'x'.repeat(5000)]);
    expect(run.code, run.stderr).toBe(0);
    const id = run.stdout.trim();
    await until(() => taskOnDisk(d, id)?.state === 'running', 15_000, 50);
    const pid = ((await d.client.get(id)) as Task & { pid: number }).pid;
    const stopped = () => /^\d+ \(.*\) T/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
    const paused = async () => Boolean(((await d.client.get(id)) as Task & { paused?: boolean }).paused);

    const filler = fill(d);
    refused(await d.cli(['pause', id]), d.paths.stateFile);
    expect(await paused()).toBe(false);
    expect(stopped()).toBe(false);
    rmSync(filler);
    expect((await d.cli(['pause', id])).code).toBe(0);
    expect(stopped()).toBe(true);

    const again = fill(d);
    refused(await d.cli(['resume', id]), d.paths.stateFile);
    expect(await paused()).toBe(true);
    expect(stopped()).toBe(true);
    rmSync(again);
    await sleep(1500); // the registry's retry writes what is live: paused
    await d.restart();
    expect(await paused()).toBe(true);
  }, 60_000);

  it('ui: refused, the dashboard does not listen', async (ctx) => {
    const port = await freePort();
    const d = await fullDiskDaemon(ctx, daemons, { ui: { port } });
    const filler = fill(d);
    refused(await d.cli(['ui', '--no-open']), join(d.paths.stateDir, 'ui.json'));
    expect(await listening(port)).toBe(false);
    rmSync(filler);
    await d.restart();
    expect(await listening(port)).toBe(false);
    expect((await d.cli(['ui', '--no-open'])).code).toBe(0);
    expect(await listening(port)).toBe(true);
  }, 60_000);

  it('monitor add and rm: refused, the monitors stay as they were, and are not written so later', async (ctx) => {
    const home = mkdtempSync('/tmp/ns-mon-home-');
    try {
      const project = join(home, 'proj');
      mkdirSync(project);
      const fake = resolve(import.meta.dirname, '../fakes/mcp-server.mjs');
      const servers = { a: { type: 'stdio', command: process.execPath, args: [fake] }, b: { type: 'stdio', command: process.execPath, args: [fake] } };
      writeFileSync(join(home, '.claude.json'), JSON.stringify({ mcpServers: servers }));
      const d = await fullDiskDaemon(ctx, daemons, {}, { HOME: home, CODEX_HOME: join(home, '.codex') });
      const file = join(d.paths.stateDir, 'monitors.json');
      const names = async () => (await json<{ monitors: Monitor[] }>(d, ['monitors'])).monitors.map((m) => m.name).sort();
      expect((await d.cli(['monitor', 'add', 'mcp', 'a', '--project', project, '--interval', '1h'])).code).toBe(0);
      const filler = fill(d);
      refused(await d.cli(['monitor', 'add', 'mcp', 'b', '--project', project, '--interval', '1h']), file);
      refused(await d.cli(['monitor', 'rm', 'a']), file);
      expect(await names()).toEqual(['a']);
      rmSync(filler);
      // A check saves the monitors: what it writes is what is listed.
      expect((await d.cli(['monitor', 'check', 'a'])).code).toBe(0);
      expect(onDisk(file)).not.toContain('"b"');
      await d.restart();
      expect(await names()).toEqual(['a']);
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  }, 60_000);
});

describe('a workflow record whose tasks were never all submitted', () => {
  it('(as earlier builds saved one refused or cut off by a crash) is failed with its missing tasks, not succeeded 0/0', async () => {
    const d = new TestDaemon();
    daemons.push(d);
    mkdirSync(d.paths.stateDir, { recursive: true });
    const record = { id: 'w1', name: null, file: null, createdAt: '2026-01-01T00:00:00.000Z', tasks: {}, needs: { a: [], b: ['a'] } };
    writeFileSync(join(d.paths.stateDir, 'workflows.json'), JSON.stringify({ version: 1, nextId: 2, workflows: [record] }));
    await d.start();
    const [w] = await workflows(d);
    expect(w?.state).toBe('failed');
    expect(w?.nodes.map((n) => [n.name, n.state, n.task])).toEqual([
      ['a', 'failed', undefined],
      ['b', 'failed', undefined],
    ]);
    expect((await d.cli(['workflow', 'list'])).stdout).toMatch(/w1 .*failed +0\/2/);
  }, 60_000);
});

describe('a dream on a full disk', () => {
  it('is refused naming ENOSPC, and leaves no lock file behind; with room again it runs', async (ctx) => {
    const d = await fullDiskDaemon(ctx, daemons);
    expect((await d.cli(['remember', '--user', 'I prefer tabs over spaces'])).code).toBe(0);
    const filler = fill(d);
    const dreamt = await d.cli(['dream']);
    expect(dreamt.code, dreamt.stderr).toBe(EXIT_DISK_FULL);
    expect(dreamt.stderr).toContain('ENOSPC');
    expect(readdirSync(d.paths.stateDir).filter((f) => f.startsWith('dream.lock'))).toEqual([]);
    rmSync(filler);
    const again = await d.cli(['dream']);
    expect(again.code, again.stderr).toBe(0);
    expect(readdirSync(d.paths.stateDir).filter((f) => f.startsWith('dream.lock'))).toEqual([]);
  }, 60_000);
});

describe('a task that ended while no end could be saved, then a daemon killed with -9', () => {
  it('on a full disk (its exit file empty): lost, saying the status could not be written, not that the wrapper was killed; ended when the exit file was', async (ctx) => {
    const d = await fullDiskDaemon(ctx, daemons);
    const go = join(d.home, 'go');
    const id = await gatedTask(d, go);
    const filler = fill(d);
    writeFileSync(go, '');
    await until(async () => {
      const t = (await d.client.get(id)) as Task & { saveError?: string };
      return t.status === 'exited' && t.saveError !== undefined;
    }, 15_000);
    const exitFile = join(d.paths.tasksDir, id, 'exit');
    expect(readFileSync(exitFile, 'utf8')).toBe('');
    const endedAt = statSync(exitFile).mtimeMs;
    await d.stop('SIGKILL');
    await sleep(1200);
    rmSync(filler);
    await d.start();
    const t = JSON.parse((await d.cli(['show', id, '--json'])).stdout) as Task & { reason?: string; endedAt?: string };
    expect(t.status).toBe('lost');
    expect(t.reason).not.toMatch(/wrapper was killed/);
    expect(t.reason).toMatch(/exit status could not be (written|recorded)/);
    expect(t.reason).toContain('empty');
    expect(Math.abs(Date.parse(t.endedAt ?? '') - endedAt)).toBeLessThan(50);
  }, 60_000);

  it('with its exit status written: ended when the exit file was, not when the next daemon found it', async () => {
    const d = new TestDaemon();
    daemons.push(d);
    await d.start();
    const go = join(d.home, 'go');
    const id = await gatedTask(d, go);
    await d.stop('SIGKILL');
    writeFileSync(go, '');
    const exitFile = join(d.paths.tasksDir, id, 'exit');
    await until(() => existsSync(exitFile) && readFileSync(exitFile, 'utf8') === '3\n', 10_000, 20);
    const endedAt = statSync(exitFile).mtimeMs;
    await sleep(1500);
    await d.start();
    const t = JSON.parse((await d.cli(['show', id, '--json'])).stdout) as Task & { endedAt?: string };
    expect(t).toMatchObject({ status: 'exited', exitCode: 3 });
    expect(Math.abs(Date.parse(t.endedAt ?? '') - endedAt)).toBeLessThan(50);
  }, 60_000);
});
