import { writeFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import type { ScheduleView } from '../../src/api/schedules.js';
import type { TaskJson as Task } from '../../src/api/tasks.js';
import { daemonsPerTest, until, type TestDaemon } from '../helpers/daemon.js';

const newDaemon = daemonsPerTest(afterEach);

async function started(): Promise<TestDaemon> {
  const d = newDaemon();
  await d.start();
  return d;
}

async function add(d: TestDaemon, ...args: string[]): Promise<string> {
  const r = await d.cli(['schedule', 'add', ...args]);
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  return r.stdout.trim();
}

async function show(d: TestDaemon, ref: string): Promise<ScheduleView> {
  const r = await d.cli(['schedule', 'show', ref, '--json']);
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout) as ScheduleView;
}

async function tasksOf(d: TestDaemon, id: string): Promise<Task[]> {
  return (await d.client.list(true)).filter((t) => t.schedule?.id === id);
}

describe('nightshift schedule', () => {
  it('fires a per-second schedule within about a second, as a task linked to it', async () => {
    const d = await started();
    const t0 = Date.now();
    const id = await add(d, '* * * * * *', '--name', 'tick', '--', 'echo', 'hi');
    expect(id).toMatch(/^s[0-9]+$/);
    const [task] = await until(async () => {
      const ts = await tasksOf(d, id);
      return ts.length > 0 && ts;
    }, 3000);
    expect(Date.now() - t0).toBeLessThan(2500);
    expect(task).toMatchObject({ name: 'tick', schedule: { id, name: 'tick' }, command: ['echo', 'hi'] });
    const ps = await d.cli(['ps', '--all']);
    expect(ps.stdout).toMatch(new RegExp(`tick \\[${id}\\]`));
    const s = await show(d, 'tick');
    expect(s.firings.find((f) => f.taskId === task?.id)?.outcome).toBe('started');
    expect(s.next.length).toBe(5);
    const list = JSON.parse((await d.cli(['schedule', 'list', '--json'])).stdout) as ScheduleView[];
    expect(list.map((x) => x.id)).toEqual([id]);
  });

  it('skips a firing while the previous firing’s task still runs', async () => {
    const d = await started();
    const id = await add(d, '* * * * * *', '--', 'sleep', '30');
    const s = await until(async () => {
      const v = await show(d, id);
      return v.firings.some((f) => f.outcome === 'skipped') && v;
    }, 4000);
    expect(s.firings.filter((f) => f.outcome === 'started')).toHaveLength(1);
    expect(await tasksOf(d, id)).toHaveLength(1);
    await d.cli(['schedule', 'rm', id]);
    for (const t of await tasksOf(d, id)) await d.cli(['kill', t.id]);
  });

  it('queues one firing and starts it when the running task ends (--overlap queue)', async () => {
    const d = await started();
    const id = await add(d, '* * * * * *', '--overlap', 'queue', '--', 'sleep', '1.3');
    const ts = await until(async () => {
      const all = await tasksOf(d, id);
      return all.filter((t) => t.status === 'exited').length >= 2 && all;
    }, 8000);
    await d.cli(['schedule', 'pause', id]);
    const ended = ts
      .filter((t): t is Extract<Task, { state: 'finished' }> => t.state === 'finished' && t.status === 'exited')
      .sort((a, b) => Number(a.id) - Number(b.id));
    const [a, b] = ended;
    // Never two at once: the queued one started only after the first ended.
    expect(Date.parse(b!.startedAt ?? '')).toBeGreaterThanOrEqual(Date.parse(a!.endedAt));
    expect((await show(d, id)).firings.some((f) => f.outcome === 'queued')).toBe(true);
  });

  it('keeps a queued firing across a daemon restart and starts it when the running task ended meanwhile', async () => {
    const d = await started();
    const id = await add(d, '* * * * * *', '--overlap', 'queue', '--', 'sleep', '3');
    await until(async () => (await show(d, id)).waiting, 5000);
    await d.stop();
    const stoppedAt = Date.now();
    // The running task (sleep 3) ends while the daemon is down; no firing comes meanwhile.
    await sleep(3500);
    await d.start();
    // The firing that waited (queued before the stop) is started, with its own time.
    const fromBefore = (v: ScheduleView) =>
      v.firings.find((f) => f.outcome === 'started' && Date.parse(f.at) < stoppedAt && v.firings.some((q) => q.outcome === 'queued' && q.at === f.at));
    const f = await until(async () => fromBefore(await show(d, id)), 10_000, 100);
    await d.cli(['schedule', 'pause', id]);
    expect(f.taskId).toBeDefined();
  });

  it('stops firing while paused and fires again when resumed', async () => {
    const d = await started();
    const id = await add(d, '* * * * * *', '--', 'true');
    await until(async () => (await tasksOf(d, id)).length > 0, 3000);
    expect((await d.cli(['schedule', 'pause', id])).code).toBe(0);
    await sleep(100); // a firing under way when paused may still land
    const before = (await tasksOf(d, id)).length;
    await sleep(1600);
    expect(await tasksOf(d, id)).toHaveLength(before);
    expect((await show(d, id)).paused).toBe(true);
    await d.cli(['schedule', 'resume', id]);
    await until(async () => (await tasksOf(d, id)).length > before, 3000);
  });

  it('removes a schedule: no more firings, the tasks it started stay', async () => {
    const d = await started();
    const id = await add(d, '* * * * * *', '--name', 'gone', '--', 'true');
    await until(async () => (await tasksOf(d, id)).length > 0, 3000);
    expect((await d.cli(['schedule', 'remove', 'gone'])).code).toBe(0);
    await sleep(100);
    const n = (await tasksOf(d, id)).length;
    await sleep(1500);
    expect(await tasksOf(d, id)).toHaveLength(n);
    expect((await d.cli(['schedule', 'list'])).stdout).toBe('no schedules\n');
    const r = await d.cli(['schedule', 'show', 'gone']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('no schedule gone');
  });

  it('survives a restart and keeps firing', async () => {
    const d = await started();
    const id = await add(d, '* * * * * *', '--name', 'keep', '--', 'true');
    await until(async () => (await tasksOf(d, id)).length > 0, 3000);
    await d.restart();
    const restartedAt = Date.now();
    const s = await show(d, 'keep');
    expect(s).toMatchObject({ id, cron: '* * * * * *', paused: false });
    await until(async () => (await tasksOf(d, id)).some((t) => Date.parse(t.createdAt) > restartedAt), 3000);
  });

  it('runs one missed firing at start with --catch-up, none without', async () => {
    const d = await started();
    // Due three minutes from now by the wall clock (so no real firing comes during the test), and
    // missed by the daemon's clock moved six minutes on.
    const cron = `${new Date(Date.now() + 3 * 60_000).getMinutes()} * * * *`;
    const catching = await add(d, cron, '--catch-up', '--', 'true');
    const plain = await add(d, cron, '--', 'true');
    await d.stop();
    // Six minutes later, as the daemon's clock sees it: one firing (at least) was missed.
    d.env.NIGHTSHIFT_CLOCK_OFFSET_MS = String(6 * 60_000);
    await d.start();
    const ts = await until(async () => {
      const t = await tasksOf(d, catching);
      return t.length > 0 && t;
    }, 3000);
    expect(ts).toHaveLength(1);
    const s = await show(d, catching);
    expect(s.firings).toMatchObject([{ outcome: 'started', catchUp: true, taskId: ts[0]?.id }]);
    expect(await tasksOf(d, plain)).toHaveLength(0);
    await sleep(300);
    expect(await tasksOf(d, catching)).toHaveLength(1);
  });

  it('refuses a bad cron expression, a bad time zone and a bad overlap with exit 2', async () => {
    const d = await started();
    const bad = await d.cli(['schedule', 'add', '61 * * * *', '--', 'true']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/is not a cron expression/);
    const tz = await d.cli(['schedule', 'add', '* * * * *', '--tz', 'Mars/Olympus', '--', 'true']);
    expect(tz.code).toBe(2);
    expect(tz.stderr).toContain('unknown time zone "Mars/Olympus"');
    const ov = await d.cli(['schedule', 'add', '* * * * *', '--overlap', 'sometimes', '--', 'true']);
    expect(ov.code).toBe(2);
    const missing = await d.cli(['schedule', 'add', '* * * * *', '--', 'no-such-command-xyz']);
    expect(missing.code).toBe(2);
    expect((await d.cli(['schedule', 'list', '--json'])).stdout.trim()).toBe('[]');
    const ok = await d.cli(['schedule', 'add', '0 9 * * 1-5', '--tz', 'Europe/Berlin', '--', 'true']);
    expect(ok.code).toBe(0);
  });

  it('refuses to start on a corrupt schedules.json, naming it (exit 78)', async () => {
    const d = await started();
    await add(d, '0 3 * * *', '--', 'true');
    await d.stop();
    const file = `${d.paths.stateDir}/schedules.json`;
    writeFileSync(file, '{"version": 1, "nextId": ');
    await expect(d.start()).rejects.toThrow(/daemon exited with 78/);
    expect(d.log).toContain(file);
  });
});
