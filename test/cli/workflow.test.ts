/** Task workflows through the CLI against a real daemon: dependencies, groups, timeouts, pause/resume. */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { daemonsPerTest, TestDaemon, until } from '../helpers/daemon.js';

let d: TestDaemon;
beforeAll(async () => {
  d = new TestDaemon({ stallCheckSeconds: 0.2 });
  await d.start();
});
afterAll(() => d.cleanup());
const newDaemon = daemonsPerTest(afterEach);

type T = {
  id: string;
  status: string;
  pid?: number;
  startedAt?: string;
  endedAt?: string;
  reason?: string;
  paused?: boolean;
  exitCode?: number;
  group?: string;
};

async function run(daemon: TestDaemon, ...args: string[]): Promise<string> {
  const r = await daemon.cli(['run', ...args]);
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  return r.stdout.trim();
}

async function show(daemon: TestDaemon, id: string): Promise<T> {
  return JSON.parse((await daemon.cli(['show', id, '--json'])).stdout) as T;
}

/** CPU ticks (user) a process has used, from /proc/PID/stat. */
function utime(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[11]);
}

/** Live processes of a process group (zombies count as gone). */
function groupMembers(pgid: number): number[] {
  const out: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${name}/stat`, 'utf8');
    } catch {
      continue;
    }
    const [state, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(pgrp) === pgid && state !== 'Z') out.push(Number(name));
  }
  return out;
}

describe('dependencies', () => {
  it('a dependent waits, then starts once its dependency succeeded', async () => {
    // Held until b is seen queued (two CLI calls can take seconds on a loaded machine).
    const gate = join(d.home, 'dep-gate');
    const a = await run(d, '--', 'sh', '-c', `while [ ! -e ${gate} ]; do sleep 0.05; done; echo a`);
    const b = await run(d, '--after', a, '--', 'echo', 'b');
    expect((await show(d, b)).status).toBe('queued');
    writeFileSync(gate, '');
    expect((await d.cli(['wait', b])).code).toBe(0);
    const [ta, tb] = [await show(d, a), await show(d, b)];
    expect(Date.parse(tb.startedAt ?? '')).toBeGreaterThanOrEqual(Date.parse(ta.endedAt ?? ''));
    expect((await d.cli(['output', b])).stdout).toBe('b\n');
  });

  it('skips dependents of a failed task with the reason, and theirs in turn; wait exits 125', async () => {
    const a = await run(d, '--', 'sh', '-c', 'sleep 0.2; exit 3');
    const b = await run(d, '--after', a, '--', 'echo', 'never');
    const c = await run(d, '--after', b, '--', 'echo', 'never');
    expect((await d.cli(['wait', c])).code).toBe(125);
    expect(await show(d, b)).toMatchObject({ status: 'skipped', reason: `dependency ${a} exited 3` });
    expect(await show(d, c)).toMatchObject({ status: 'skipped', reason: `dependency ${b} was skipped` });
    expect((await d.cli(['output', b])).stdout).toBe('');
    // A dependency that has already failed skips a new dependent at once.
    const late = await d.cli(['run', '--after', a, '--json', '--', 'true']);
    expect(JSON.parse(late.stdout)).toMatchObject({ status: 'skipped' });
  });

  it('--after-any starts once they ended, however they ended', async () => {
    const a = await run(d, '--', 'sh', '-c', 'exit 1');
    const k = await run(d, '--', 'sleep', '30');
    const b = await run(d, '--after-any', `${a},${k}`, '--', 'echo', 'ran');
    await sleep(200);
    expect((await show(d, b)).status).toBe('queued');
    await d.cli(['kill', k]);
    expect((await d.cli(['wait', b])).code).toBe(0);
    expect((await d.cli(['output', b])).stdout).toBe('ran\n');
  });

  it('refuses an unknown dependency, naming it', async () => {
    const r = await d.cli(['run', '--after', '999999', '--', 'true']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('no task 999999');
  });
});

describe('groups', () => {
  it('a group of parallel 2 never runs 3 at once, and starts them in submission order', async () => {
    expect((await d.cli(['group', 'add', 'two', '--parallel', '2'])).code).toBe(0);
    const ids: string[] = [];
    // Each waits for the gate file, so all five are submitted before any ends.
    const gate = join(d.home, 'gate');
    for (let i = 0; i < 5; i++) ids.push(await run(d, '--group', 'two', '--', 'sh', '-c', `while [ ! -e ${gate} ]; do sleep 0.02; done; sleep 0.2`));
    const groups = JSON.parse((await d.cli(['group', 'list', '--json'])).stdout) as { name: string; parallel: number; running: number; queued: number }[];
    expect(groups.find((g) => g.name === 'two')).toMatchObject({ parallel: 2, running: 2, queued: 3 });
    const queued = JSON.parse((await d.cli(['ps', '--group', 'two', '--status', 'queued', '--json'])).stdout) as T[];
    expect(queued.map((t) => t.id)).toEqual(ids.slice(2));
    writeFileSync(gate, '');
    for (const id of ids) expect((await d.cli(['wait', id])).code).toBe(0);
    const tasks = await Promise.all(ids.map((id) => show(d, id)));
    const spans = tasks.map((t) => [Date.parse(t.startedAt ?? ''), Date.parse(t.endedAt ?? '')] as const);
    const most = Math.max(...spans.map(([s]) => spans.filter(([s2, e2]) => s2 <= s && s < e2).length));
    expect(most).toBe(2);
    const starts = spans.map(([s]) => s);
    expect([...starts].sort((x, y) => x - y)).toEqual(starts);
  });

  it('refuses to remove a group with tasks, and an unknown group at run', async () => {
    await d.cli(['group', 'add', 'busy', '--parallel', '1']);
    const t = await run(d, '--group', 'busy', '--', 'sleep', '30');
    const r = await d.cli(['group', 'rm', 'busy']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('running');
    await d.cli(['kill', t]);
    await d.cli(['wait', t]);
    expect((await d.cli(['group', 'rm', 'busy'])).code).toBe(0);
    const u = await d.cli(['run', '--group', 'busy', '--', 'true']);
    expect(u.code).toBe(1);
    expect(u.stderr).toContain('no group busy');
  });

  it('a restarted daemon keeps its groups and queued dependents', async () => {
    const x = newDaemon();
    await x.start();
    await x.cli(['group', 'add', 'one', '--parallel', '1']);
    // It ends only once the gate file is there: after the restart, whatever the machine's load.
    const gate = join(x.home, 'gate');
    const a = await run(x, '--group', 'one', '--', 'sh', '-c', `while [ ! -e ${gate} ]; do sleep 0.02; done`);
    const b = await run(x, '--group', 'one', '--after', a, '--', 'echo', 'after');
    await x.restart();
    expect((await show(x, b)).status).toBe('queued');
    const groups = JSON.parse((await x.cli(['group', 'list', '--json'])).stdout) as { name: string; parallel: number }[];
    expect(groups.find((g) => g.name === 'one')?.parallel).toBe(1);
    writeFileSync(gate, '');
    expect((await x.cli(['wait', b])).code).toBe(0);
    expect((await x.cli(['output', b])).stdout).toBe('after\n');
  });
});

describe('timeout', () => {
  it('ends the whole process tree at the deadline as timed_out; wait exits 123', async () => {
    const id = await run(d, '--timeout', '500ms', '--', 'sh', '-c', 'sleep 30 & sleep 30 & wait');
    const started = await until(async () => (await show(d, id)).pid);
    const w = await d.cli(['wait', id]);
    expect(w.code).toBe(123);
    expect(await show(d, id)).toMatchObject({ status: 'timed_out', reason: 'timed out after 0.5s' });
    await until(() => groupMembers(started).length === 0, 3000);
  });

  it('does not count the time a task spends paused, also across a daemon restart', async () => {
    const x = newDaemon();
    await x.start();
    const c = x.client;
    const gate = join(x.home, 'pause-gate');
    const env = { PATH: process.env['PATH'] ?? '/usr/bin:/bin' };
    // Through the client, so that slow CLI start-ups on a loaded machine do not eat the timeouts.
    // A: a 4 s timeout, paused past it (the daemon restarted meanwhile), resumed, then let finish.
    // B: a 2 s timeout, paused for 1 s: it times out, but not before 3 s.
    const a = await c.run({
      command: ['sh', '-c', `while [ ! -e ${gate} ]; do sleep 0.05; done; echo done`],
      cwd: x.home,
      env,
      stdin: false,
      timeoutSeconds: 4,
    });
    const b = await c.run({ command: ['sleep', '30'], cwd: x.home, env, stdin: false, timeoutSeconds: 2 });
    await c.pause(a.id);
    await c.pause(b.id);
    await sleep(1000);
    await c.resume(b.id);
    await x.restart();
    await until(async () => Date.now() - Date.parse((await show(x, a.id)).startedAt ?? '') > 4500, 10_000, 100);
    expect(await show(x, a.id)).toMatchObject({ status: 'running', paused: true });
    await x.client.resume(a.id);
    writeFileSync(gate, '');
    expect((await x.cli(['wait', a.id])).code).toBe(0);
    expect((await x.cli(['output', a.id])).stdout).toBe('done\n');
    expect((await x.cli(['wait', b.id])).code).toBe(123);
    const tb = await show(x, b.id);
    // Two seconds of run time and one paused; the start and the end are stamped in different
    // processes (the wrapper, the daemon), a few milliseconds apart under load.
    expect(Date.parse(tb.endedAt ?? '') - Date.parse(tb.startedAt ?? '')).toBeGreaterThanOrEqual(2950);
  });

  it('refuses a malformed duration', async () => {
    const r = await d.cli(['run', '--timeout', 'soon', '--', 'true']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--timeout');
  });
});

describe('pause and resume', () => {
  it('pause stops the CPU use of the task, resume lets it go on; ps shows it paused', async () => {
    const id = await run(d, '--stall-after', '1', '--', 'sh', '-c', 'while :; do :; done');
    const pid = await until(async () => (await show(d, id)).pid);
    try {
      expect((await d.cli(['pause', id])).code).toBe(0);
      const before = utime(pid);
      await sleep(300);
      expect(utime(pid)).toBe(before);
      expect((await show(d, id)).paused).toBe(true);
      expect((await d.cli(['ps'])).stdout).toContain('running (paused)');
      // Silent for longer than its stall time, yet no attention: it was stopped on purpose.
      await sleep(1300);
      expect(await show(d, id)).not.toHaveProperty('attention');
      expect((await d.cli(['resume', id])).code).toBe(0);
      const resumed = utime(pid);
      await sleep(300);
      expect(utime(pid)).toBeGreaterThan(resumed);
      expect((await show(d, id)).paused).toBeUndefined();
    } finally {
      await d.cli(['kill', id, '--signal', 'KILL']);
    }
  });

  it('pause --group pauses the running tasks of the group; kill ends a paused task', async () => {
    await d.cli(['group', 'add', 'pg', '--parallel', '2']);
    const a = await run(d, '--group', 'pg', '--', 'sleep', '30');
    const p = JSON.parse((await d.cli(['pause', '--group', 'pg', '--json'])).stdout) as string[];
    expect(p).toEqual([a]);
    expect((await show(d, a)).paused).toBe(true);
    await d.cli(['kill', a]);
    const w = await d.cli(['wait', a, '--timeout', '5']);
    expect(w.code).toBe(143);
  });
});

describe('restart and labels', () => {
  it('restart starts a new task with the same command, cwd, group and labels, linked to the old one', async () => {
    await d.cli(['group', 'add', 'again', '--parallel', '1']);
    const cwd = d.home;
    const old = await run(d, '--cwd', cwd, '--group', 'again', '--label', 'suite=unit', '--name', 'twice', '--', 'sh', '-c', 'pwd; echo "$WHO"');
    expect((await d.cli(['wait', old])).code).toBe(0);
    const r = await d.cli(['restart', old], { env: { WHO: 'restarter' } });
    expect(r.code).toBe(0);
    const id = r.stdout.trim();
    expect(id).not.toBe(old);
    expect((await d.cli(['wait', id])).code).toBe(0);
    expect(await show(d, id)).toMatchObject({ restartOf: old, group: 'again', name: 'twice', labels: { suite: 'unit' } });
    expect((await d.cli(['output', id])).stdout).toBe(`${cwd}\nrestarter\n`);
    const running = await run(d, '--', 'sleep', '30');
    const refused = await d.cli(['restart', running]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('running');
    await d.cli(['kill', running]);
  });

  it('restart keeps --retry (as first given), --retry-delay, --timeout, --group and --label', async () => {
    await d.cli(['group', 'add', 'rr', '--parallel', '2']);
    const old = await run(d, '--retry', '1', '--retry-delay', '100ms', '--timeout', '30', '--group', 'rr', '--label', 'k=v', '--', 'sh', '-c', 'exit 3');
    expect((await d.cli(['wait', old])).code).toBe(3);
    const last = (await show(d, old)) as T & { retriedBy?: string };
    expect(last.retriedBy).toBeDefined();
    // Restarting the last attempt (no retries left) still gives the new run the --retry 1 of the first.
    const r = await d.cli(['restart', last.retriedBy ?? '']);
    expect(r.code).toBe(0);
    const id = r.stdout.trim();
    expect((await d.cli(['wait', id])).code).toBe(3);
    expect(await show(d, id)).toMatchObject({ retries: 1, attempt: 1, retryDelaySeconds: 0.1, timeoutSeconds: 30, group: 'rr', labels: { k: 'v' } });
    expect((await show(d, id)) as T & { retriedBy?: string }).toHaveProperty('retriedBy');
  });

  it('ps --label lists only the tasks with every label given', async () => {
    const a = await run(d, '--label', 'team=x', '--label', 'kind=build', '--', 'true');
    const b = await run(d, '--label', 'team=x', '--', 'true');
    await run(d, '--label', 'team=y', '--', 'true');
    const ids = async (...labels: string[]) =>
      (JSON.parse((await d.cli(['ps', '--all', ...labels.flatMap((l) => ['--label', l]), '--json'])).stdout) as T[]).map((t) => t.id);
    expect(await ids('team=x')).toEqual([a, b]);
    expect(await ids('team=x', 'kind=build')).toEqual([a]);
    const bad = await d.cli(['run', '--label', '../x=1', '--', 'true']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('label keys');
  });
});

describe('retry', () => {
  it('runs a failing command again as linked attempts, each with its own output; wait follows them to the last', async () => {
    const counter = join(d.home, 'attempts');
    // Fails twice, then succeeds: attempt k prints k.
    const script = `n=$(cat ${counter} 2>/dev/null || echo 0); n=$((n+1)); echo $n > ${counter}; echo "attempt $n"; [ $n -ge 3 ]`;
    const first = await run(d, '--retry', '3', '--retry-delay', '200ms', '--', 'sh', '-c', script);
    const w = await d.cli(['wait', first, '--json']);
    expect(w.code).toBe(0);
    const last = JSON.parse(w.stdout) as T & { attempt: number; retryOf: string };
    expect(last).toMatchObject({ status: 'exited', exitCode: 0, attempt: 3 });
    const chain: Array<T & { attempt?: number; retryOf?: string; retriedBy?: string }> = [await show(d, first)];
    while (chain[chain.length - 1]?.retriedBy) chain.push(await show(d, chain[chain.length - 1]?.retriedBy ?? ''));
    expect(chain.map((t) => [t.status, t.exitCode, t.attempt])).toEqual([
      ['exited', 1, 1],
      ['exited', 1, 2],
      ['exited', 0, 3],
    ]);
    expect(chain[1]?.retryOf).toBe(first);
    for (const [i, t] of chain.entries()) expect((await d.cli(['output', t.id])).stdout).toBe(`attempt ${i + 1}\n`);
    // The delay was kept between attempts.
    expect(Date.parse(chain[1]?.startedAt ?? '') - Date.parse(chain[0]?.endedAt ?? '')).toBeGreaterThanOrEqual(190);
  });

  it('gives up after N retries with the last exit code; a dependent waits for the last attempt', async () => {
    const first = await run(d, '--retry', '1', '--', 'sh', '-c', 'exit 7');
    const dep = await run(d, '--after', first, '--', 'true');
    expect((await d.cli(['wait', first])).code).toBe(7);
    expect((await d.cli(['wait', dep])).code).toBe(125);
    const retried = (await show(d, first)) as T & { retriedBy?: string };
    const last = await show(d, retried.retriedBy ?? '');
    expect(last).toMatchObject({ status: 'exited', exitCode: 7 });
    const skipped = await show(d, dep);
    expect(skipped.reason).toBe(`dependency ${first} exited 7`);
    // Skipped only once the last attempt had failed, not at the first failure.
    expect(Date.parse(skipped.endedAt ?? '')).toBeGreaterThanOrEqual(Date.parse(last.endedAt ?? ''));
  });
});
