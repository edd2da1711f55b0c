import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestDaemon, until } from '../helpers/daemon.js';

let d: TestDaemon;
let startedAt = 0;
beforeAll(async () => {
  d = new TestDaemon({ stallCheckSeconds: 0.2 });
  startedAt = Date.now();
  await d.start();
});
afterAll(() => d.cleanup());

/** Live processes whose process group is `pgid` (zombies count as gone), from /proc. */
function groupMembers(pgid: number): number[] {
  const out: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${name}/stat`, 'utf8');
    } catch {
      continue; // ended while we looked
    }
    // pid (comm) state ppid pgrp …; comm may hold spaces and parentheses.
    const [state, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(pgrp) === pgid && state !== 'Z') out.push(Number(name));
  }
  return out;
}

async function run(...args: string[]): Promise<string> {
  const r = await d.cli(['run', ...args]);
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  expect(r.stdout).toMatch(/^[0-9]+\n$/);
  return r.stdout.trim();
}

describe('run, show, ps, output, wait', () => {
  it('prints only the id, captures stdout and stderr in order, and reports the exit code', async () => {
    const id = await run('--name', 'greet', '--', 'sh', '-c', 'echo out1; echo err1 >&2; echo out2; exit 3');
    const w = await d.cli(['wait', id]);
    expect(w.code).toBe(3);
    const out = await d.cli(['output', id]);
    expect(out.stdout).toBe('out1\nerr1\nout2\n');
    const show = JSON.parse((await d.cli(['show', id, '--json'])).stdout);
    expect(show).toMatchObject({ id, name: 'greet', status: 'exited', exitCode: 3, outputBytes: 15, stdin: 'closed' });
    expect(show.pid).toBeGreaterThan(0);
    expect(Date.parse(show.endedAt)).toBeGreaterThanOrEqual(Date.parse(show.startedAt));
    const ps = await d.cli(['ps', '--all']);
    expect(ps.stdout).toMatch(new RegExp(`^${id}\\s+greet\\s+exited 3`, 'm'));
    const human = await d.cli(['show', id]);
    expect(human.stdout).toMatch(/exit code:\s+3/);
  });

  it('runs a single argument with shell syntax through sh -c', async () => {
    const id = await run('--', 'echo a && echo b | tr b c');
    await d.cli(['wait', id]);
    expect((await d.cli(['output', id])).stdout).toBe('a\nc\n');
  });

  it('passes --cwd and --env to the task', async () => {
    const id = await run('--cwd', '/tmp', '--env', 'GREETING=hello there', '--', 'sh', '-c', 'pwd; echo "$GREETING"');
    await d.cli(['wait', id]);
    expect((await d.cli(['output', id])).stdout).toBe('/tmp\nhello there\n');
  });

  it('reads by offset and limit, with JSON metadata', async () => {
    const id = await run('--', 'printf', '0123456789');
    await d.cli(['wait', id]);
    expect((await d.cli(['output', id, '--offset', '3', '--limit', '4'])).stdout).toBe('3456');
    const j = JSON.parse((await d.cli(['output', id, '--offset', '3', '--limit', '4', '--json'])).stdout);
    expect(j).toEqual({ data: '3456', offset: 3, nextOffset: 7, size: 10, status: 'exited', done: false });
    const end = JSON.parse((await d.cli(['output', id, '--offset', '7', '--json'])).stdout);
    expect(end).toMatchObject({ data: '789', nextOffset: 10, done: true });
    const past = await d.cli(['output', id, '--offset', '500', '--json']);
    expect(past.code).toBe(0);
    expect(JSON.parse(past.stdout)).toMatchObject({ data: '', offset: 500, nextOffset: 500, size: 10 });
  });

  it('never splits a character in JSON, and reaches done at the end of an output that ends in half of one', async () => {
    // "a€" and then the first two bytes of another "€": nothing will ever complete it.
    const id = await run('--', 'printf', 'a\\342\\202\\254\\342\\202');
    await d.cli(['wait', id]);
    const cut = JSON.parse((await d.cli(['output', id, '--limit', '3', '--json'])).stdout);
    expect(cut).toMatchObject({ data: 'a', offset: 0, nextOffset: 1, size: 6, done: false });
    const rest = JSON.parse((await d.cli(['output', id, '--offset', '1', '--json'])).stdout);
    expect(rest).toMatchObject({ offset: 1, nextOffset: 6, size: 6, done: true });
    expect(rest.data.startsWith('€')).toBe(true);
  });

  it('in JSON, a read always moves on by at least one whole character and starts on one; raw bytes stay raw', async () => {
    const id = await run('--', 'printf', 'a\\360\\237\\230\\200b\\342\\202\\254'); // a😀b€: 1 + 4 + 1 + 3 bytes
    await d.cli(['wait', id]);
    const json = async (offset: number, limit: number) =>
      JSON.parse((await d.cli(['output', id, '--offset', String(offset), '--limit', String(limit), '--json'])).stdout);
    // A limit smaller than the character at the offset: that whole character, not nothing.
    expect(await json(1, 1)).toMatchObject({ data: '😀', offset: 1, nextOffset: 5, done: false });
    // An offset inside a character: the read starts on its first byte, never with a replacement character.
    expect(await json(2, 1)).toMatchObject({ data: '😀', offset: 1, nextOffset: 5 });
    expect(await json(7, 2)).toMatchObject({ data: '€', offset: 6, nextOffset: 9, done: true });
    // A pager going on from nextOffset with the smallest limit reaches the end, one character a page.
    const pages: string[] = [];
    for (let offset = 0, done = false; !done && pages.length < 20;) {
      const page = await json(offset, 1);
      expect(page.nextOffset).toBeGreaterThan(offset);
      pages.push(page.data);
      ({ nextOffset: offset, done } = page);
    }
    expect(pages).toEqual(['a', '😀', 'b', '€']);
    const raw = await d.cli(['output', id, '--offset', '2', '--limit', '1']);
    expect(Buffer.from(raw.stdout, 'latin1').length).toBeGreaterThan(0);
    expect((await d.client.output(id, { offset: 2, limit: 1 })).data).toEqual(Buffer.from([0x9f]));
  });

  it('rejects negative and non-numeric offsets', async () => {
    for (const bad of ['-1', 'abc', '1.5']) {
      const r = await d.cli(['output', '1', `--offset=${bad}`]);
      expect(r.code).not.toBe(0);
      expect(r.stderr).toMatch(/--offset must be a whole number from 0 to 9007199254740991/);
    }
  });

  it('says clearly when the cwd is missing or the command cannot start', async () => {
    const cwd = await d.cli(['run', '--cwd', '/definitely/not/here', '--', 'ls']);
    expect(cwd.code).not.toBe(0);
    expect(cwd.stderr).toMatch(/working directory \/definitely\/not\/here does not exist/);
    const cmd = await d.cli(['run', '--', 'no-such-command-xyz']);
    expect(cmd.code).not.toBe(0);
    expect(cmd.stderr).toMatch(/command not found: no-such-command-xyz/);
    const plain = join(d.home, 'plain.txt');
    writeFileSync(plain, 'not a program', { mode: 0o644 });
    const notExec = await d.cli(['run', '--', plain]);
    expect(notExec.code).not.toBe(0);
    expect(notExec.stderr).toMatch(/not an executable file/);
  });

  it('errors on unknown ids', async () => {
    const r = await d.cli(['show', '99999']);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/no task 99999/);
  });
});

describe('stdin, kill, tail, rm', () => {
  it('answers prompts through stdin and closes it with --eof', async () => {
    const id = await run('--', 'sh', '-c', 'printf "name? "; read n; echo "hi $n"; cat; echo "[eof]"');
    expect((await d.cli(['send', id, 'bob'])).code).toBe(0);
    expect((await d.cli(['send', id, '--raw', 'no newline yet'])).code).toBe(0);
    expect((await d.cli(['send', id, '', '--eof'])).code).toBe(0);
    expect((await d.cli(['wait', id, '--timeout', '10'])).code).toBe(0);
    expect((await d.cli(['output', id])).stdout).toBe('name? hi bob\nno newline yet[eof]\n');
    const again = await d.cli(['send', id, 'late']);
    expect(again.code).not.toBe(0);
  });

  it('takes input sent the instant after run, before the task has opened its stdin', async () => {
    for (let i = 0; i < 5; i++) {
      const t = await d.client.run({ command: ['head', '-n', '1'], cwd: '/tmp', env: {}, stdin: true });
      await d.client.input(t.id, `line ${i}\n`);
      expect((await d.client.wait(t.id, 10)).task.status).toBe('exited');
      expect((await d.client.output(t.id)).data.toString()).toBe(`line ${i}\n`);
    }
  });

  it('refuses input for a task started with --no-stdin, whose stdin is /dev/null', async () => {
    const id = await run('--no-stdin', '--', 'sh', '-c', 'cat; echo read-eof; sleep 1');
    const r = await d.cli(['send', id, 'x']);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/--no-stdin/);
    await d.cli(['wait', id]);
    expect((await d.cli(['output', id])).stdout).toBe('read-eof\n');
  });

  it('kills the whole process group and wait exits 128+signal', async () => {
    const id = await run('--', 'sh', '-c', 'sleep 300 & sleep 300 & echo started; wait');
    // The task's pid leads its own process group: the shell and both sleeps are in it.
    const { pgid, members } = await until(async () => {
      const task = await d.client.get(id);
      const pid = 'pid' in task ? task.pid : undefined;
      const found = pid === undefined ? [] : groupMembers(pid);
      return pid !== undefined && found.length >= 3 && { pgid: pid, members: found };
    });
    expect(members).toContain(pgid);
    expect((await d.cli(['kill', id, '--signal', 'KILL'])).code).toBe(0);
    expect((await d.cli(['wait', id])).code).toBe(137);
    const show = JSON.parse((await d.cli(['show', id, '--json'])).stdout);
    expect(show).toMatchObject({ status: 'killed', signal: 'SIGKILL', exitCode: 137 });
    // No process of the group survives, grandchildren included.
    await until(() => groupMembers(pgid).length === 0);
    for (const pid of members) expect(existsSync(`/proc/${pid}`) && !readFileSync(`/proc/${pid}/stat`, 'utf8').includes(') Z ')).toBe(false);
  });

  it('delivers other signals to the task itself, which may handle them', async () => {
    for (const stdin of [[], ['--no-stdin']]) {
      const id = await run(...stdin, '--', 'sh', '-c', 'trap "echo got usr1" USR1; echo ready; sleep 2 & wait; echo end');
      await until(async () => (await d.client.get(id)).outputBytes > 0);
      expect((await d.cli(['kill', id, '--signal', 'usr1'])).code).toBe(0);
      expect((await d.cli(['wait', id])).code).toBe(0);
      expect((await d.cli(['output', id])).stdout).toBe('ready\ngot usr1\nend\n');
    }
  });

  it('tails the last lines and follows until the task ends', async () => {
    const id = await run('--', 'sh', '-c', 'for i in 1 2 3 4 5 6 7 8; do echo line $i; sleep 0.3; done');
    await until(async () => (await d.client.get(id)).outputBytes >= 14);
    const r = await d.cli(['tail', id, '-n', '1', '-f']);
    expect(r.code).toBe(0);
    const lines = r.stdout.trim().split('\n');
    expect(lines.at(-1)).toBe('line 8');
    // Whatever it started with, it shows every later line exactly once and in order…
    const first = Number(lines[0]?.split(' ')[1]);
    expect(lines).toEqual(Array.from({ length: 9 - first }, (_, i) => `line ${first + i}`));
    // …and it started before the end (≥ 1.5 s of the task were left), so some lines came by following.
    expect(first).toBeLessThan(8);
    const last2 = await d.cli(['tail', id, '-n', '2']);
    expect(last2.stdout).toBe('line 7\nline 8\n');
  });

  it('removes finished tasks with their files, refuses running ones', async () => {
    const id = await run('--', 'sleep', '30');
    const busy = await d.cli(['rm', id]);
    expect(busy.code).not.toBe(0);
    expect(busy.stderr).toMatch(/kill it first/);
    await d.cli(['kill', id]);
    await d.cli(['wait', id]);
    const dir = `${d.paths.tasksDir}/${id}`;
    expect(existsSync(dir)).toBe(true);
    expect((await d.cli(['rm', id])).code).toBe(0);
    expect(existsSync(dir)).toBe(false);
    expect((await d.cli(['show', id])).code).not.toBe(0);
  });
});

describe('events and status', () => {
  it('streams started and exited events as they happen', async () => {
    const seen: string[] = [];
    const ac = new AbortController();
    const stream = d.client
      .events((e) => seen.push(`${e.type}:${e.task.id}`), ac.signal)
      .then(
        () => 'ended',
        (err: Error) => (ac.signal.aborted ? 'aborted' : `failed: ${err.message}`),
      );
    await new Promise((r) => setTimeout(r, 100));
    const id = await run('--', 'true');
    await until(() => seen.includes(`exited:${id}`));
    expect(seen.filter((e) => e.endsWith(`:${id}`))).toEqual([`started:${id}`, `exited:${id}`]);
    ac.abort();
    expect(await stream).toMatch(/^(aborted|ended)$/);
  });

  it("pid means the command's pid everywhere: run, the started event, show, ps; the log line has one pid key", async () => {
    const started: { id: string; pid?: number }[] = [];
    const ac = new AbortController();
    const stream = d.client
      .events((e) => e.type === 'started' && started.push({ id: e.task.id, pid: 'pid' in e.task ? e.task.pid : undefined }), ac.signal)
      .catch(() => undefined);
    await new Promise((r) => setTimeout(r, 100));
    const r = await d.cli(['run', '--json', '--no-stdin', '--', 'sleep', '30']);
    const task = JSON.parse(r.stdout) as { id: string; pid: number };
    try {
      // The same pid goes setsid → sleep by exec; on a loaded machine `run` can answer before the exec.
      const cmdline = () => readFileSync(`/proc/${task.pid}/cmdline`, 'utf8');
      await until(() => !cmdline().includes('setsid') || undefined, 5_000);
      expect(cmdline()).toBe('sleep\u000030\u0000');
      const shown = JSON.parse((await d.cli(['show', task.id, '--json'])).stdout) as { pid: number };
      expect(shown.pid).toBe(task.pid);
      expect((await d.cli(['ps'])).stdout).toMatch(new RegExp(`^${task.id} .* ${task.pid} `, 'm'));
      await until(() => started.some((e) => e.id === task.id));
      expect(started.find((e) => e.id === task.id)?.pid).toBe(task.pid);
      const line = d.log.split('\n').find((l) => l.includes('"task started"') && l.includes(`"task":"${task.id}"`)) ?? '';
      expect(line.match(/"pid":/g)).toHaveLength(1);
      expect(JSON.parse(line)).toMatchObject({ pid: d.proc?.pid, commandPid: task.pid });
    } finally {
      ac.abort();
      await stream;
      await d.cli(['kill', task.id, '--signal', 'KILL']);
    }
  });

  it('ps keeps its columns aligned with CJK and emoji names (terminal columns, not string length)', async () => {
    const names = ['日本語のビルド', '🚀 deploy', 'plain', 'ab😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀'];
    const ids: string[] = [];
    for (const name of names) ids.push(await run('--name', name, '--no-stdin', '--', 'sleep', '30'));
    try {
      const out = (await d.cli(['ps'])).stdout;
      // Columns as a terminal shows them, counted here without the library under test: ASCII and the ellipsis of a
      // clipped name are one column, the CJK characters and emoji used here two.
      const cols = (s: string) => [...s].reduce((n, ch) => n + (ch.charCodeAt(0) < 0x80 || ch === '…' ? 1 : 2), 0);
      const lines = out.split('\n').filter((l) => ids.some((id) => l.startsWith(`${id} `)));
      expect(lines).toHaveLength(names.length);
      const statusAt = lines.map((l) => cols(l.slice(0, l.indexOf('running'))));
      expect(new Set(statusAt).size, out).toBe(1);
      expect(cols(out.split('\n')[0]?.slice(0, out.indexOf('STATUS')) ?? '')).toBe(statusAt[0]);
      expect(out).not.toMatch(/[\uD800-\uDFFF](?![\uDC00-\uDFFF])/u); // no emoji cut in half
    } finally {
      for (const id of ids) await d.cli(['kill', id, '--signal', 'KILL']);
    }
  });

  it('reports version, pid, uptime, socket and task counts', async () => {
    const sleeper = await run('--', 'sleep', '30');
    const s = JSON.parse((await d.cli(['status', '--json'])).stdout);
    const ps = JSON.parse((await d.cli(['ps', '--all', '--json'])).stdout) as Array<{ status: string }>;
    expect(s).toMatchObject({ pid: d.proc?.pid, socket: d.paths.socket });
    expect(s.version).toMatch(/^\d+\.\d+\.\d+/);
    // The counts are those of the task list, the sleeper among the running.
    const count = (status: string) => ps.filter((t) => t.status === status).length;
    expect(s.tasks).toMatchObject({ running: count('running'), queued: count('queued'), exited: count('exited'), killed: count('killed'), total: ps.length });
    expect(s.tasks.running).toBeGreaterThanOrEqual(1);
    expect(s.uptimeSeconds).toBeLessThanOrEqual(Math.ceil((Date.now() - startedAt) / 1000));
    expect(s.uptimeSeconds).toBeGreaterThanOrEqual(Math.floor((Date.now() - startedAt) / 1000) - 30);
    await d.cli(['kill', sleeper]);
    await d.cli(['wait', sleeper]);
  });
});
