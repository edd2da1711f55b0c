import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, TestDaemon, stringEnv, until } from '../helpers/daemon.js';
import { alive, startMcp, structured, text, type McpSession } from './mcp-client.js';

interface Output {
  data: string;
  offset: number;
  next_offset: number;
  size: number;
  status: string;
  done: boolean;
  exit_code?: number;
  signal?: string;
}

let daemon: TestDaemon;
let mcp: McpSession;
let cwd: string;

beforeAll(async () => {
  daemon = new TestDaemon({ stallCheckSeconds: 1 });
  await daemon.start();
  cwd = realpathSync(mkdtempSync('/tmp/ns-mcp-cwd-'));
  mkdirSync(join(cwd, 'sub'));
  mcp = await startMcp({ ...daemon.env, NS_MCP_TEST_VAR: 'from-the-server' }, cwd);
});

afterAll(async () => {
  await mcp?.close();
  await daemon?.cleanup();
  if (cwd) rmSync(cwd, { recursive: true, force: true });
});

async function run(args: Record<string, unknown>): Promise<string> {
  const r = await mcp.call('task_run', args);
  return structured<{ task_id: string }>(r).task_id;
}

/** Reads a task's whole output page by page once it has ended. */
async function readAll(id: string, limit?: number): Promise<{ data: string; pages: Output[] }> {
  await until(async () => structured<Output>(await mcp.call('task_output', { task_id: id, offset: 0, limit: 16 })).status !== 'running', 10_000);
  const pages: Output[] = [];
  let offset = 0;
  for (;;) {
    const page = structured<Output>(await mcp.call('task_output', { task_id: id, offset, ...(limit ? { limit } : {}) }));
    pages.push(page);
    if (page.done) break;
    expect(page.next_offset).toBeGreaterThan(offset);
    offset = page.next_offset;
  }
  return { data: pages.map((p) => p.data).join(''), pages };
}

describe('nightshift mcp: task tools over stdio', () => {
  it('lists the nineteen tools named noun_verb, each with an input and an output schema, and the old names as deprecated', async () => {
    const { tools } = await mcp.client.listTools();
    const current = tools.filter((t) => !t.description?.startsWith('Deprecated'));
    expect(current.map((t) => t.name).sort()).toEqual(
      [
        'memory_forget',
        'memory_recall',
        'memory_remember',
        'monitor_list',
        'schedule_add',
        'schedule_list',
        'schedule_remove',
        'session_search',
        'task_input',
        'task_kill',
        'task_list',
        'task_output',
        'task_pause',
        'task_restart',
        'task_resume',
        'task_run',
        'task_since',
        'workflow_run',
        'workflow_show',
      ].sort(),
    );
    for (const t of current) {
      expect(t.name).toMatch(/^(task|schedule|workflow|memory|session|monitor)_[a-z]+$/);
      expect(t.inputSchema.type).toBe('object');
      expect(t.outputSchema?.type).toBe('object');
      expect(t.description?.length).toBeGreaterThan(20);
    }
    const run = tools.find((t) => t.name === 'task_run');
    expect(Object.keys(run?.inputSchema.properties ?? {})).toEqual(expect.arrayContaining(['command', 'cwd', 'stall_after_seconds', 'stdin']));
    const old = Object.fromEntries(tools.filter((t) => t.description?.startsWith('Deprecated')).map((t) => [t.name, t.description]));
    expect(Object.keys(old).sort()).toEqual(
      [
        'forget',
        'kill_task',
        'list_tasks',
        'monitors',
        'pause_task',
        'recall',
        'remember',
        'restart_task',
        'resume_task',
        'run_task',
        'search_sessions',
        'send_input',
      ].sort(),
    );
    expect(old.run_task).toContain('Call task_run instead');
  });

  it('still answers to the old names for one release, checking their input the same way', async () => {
    const id = structured<{ task_id: string }>(await mcp.call('run_task', { command: 'echo old name' })).task_id;
    expect((await readAll(id)).data).toBe('old name\n');
    expect(structured<{ tasks: { task_id: string }[] }>(await mcp.call('list_tasks', {})).tasks.map((t) => t.task_id)).toContain(id);
    const bad = await mcp.call('run_task', { command: '' });
    expect(bad.isError).toBe(true);
    expect(text(bad)).toContain('command is empty');
    expect((await mcp.call('forget', { id: 'not-an-id' })).isError).toBe(true);
  });

  it('runs a shell command line in the server cwd with the server env, and reads its output and exit code', async () => {
    const id = await run({ command: 'pwd; echo "$NS_MCP_TEST_VAR"; echo héllo; exit 3' });
    const { data, pages } = await readAll(id);
    expect(data).toBe(`${cwd}\nfrom-the-server\nhéllo\n`);
    const last = pages[pages.length - 1];
    expect(last).toMatchObject({ status: 'exited', exit_code: 3, done: true, size: Buffer.byteLength(data) });
    const r = await mcp.call('task_output', { task_id: id });
    expect(text(r)).toContain('héllo');
    expect(text(r)).toContain(`[task ${id}: exit code 3;`);
    expect(text(r)).not.toContain('call task_output with offset');
  });

  it('queues a task after another, skips it when that one fails, and pauses and resumes a task', async () => {
    const first = await run({ command: 'sleep 0.3; exit 4' });
    const r = await mcp.call('task_run', { command: 'echo never', after: [first], timeout_seconds: 5 });
    const dependent = structured<{ task_id: string; status: string; after: string[] }>(r);
    expect(dependent).toMatchObject({ status: 'queued', after: [first] });
    expect(text(r)).toContain(`queued background task ${dependent.task_id}`);
    await until(async () => structured<Output>(await mcp.call('task_output', { task_id: dependent.task_id })).status === 'skipped', 10_000);
    const sleeper = await run({ command: ['sleep', '30'] });
    const paused = await mcp.call('task_pause', { task_id: sleeper });
    expect(structured<{ paused?: boolean }>(paused).paused).toBe(true);
    expect(text(paused)).toContain('running, paused');
    expect(structured<{ paused?: boolean }>(await mcp.call('task_resume', { task_id: sleeper })).paused).toBeUndefined();
    await mcp.call('task_kill', { task_id: sleeper, signal: 'KILL' });
    const again = structured<{ task_id: string; restart_of: string }>(await mcp.call('task_restart', { task_id: first }));
    expect(again.restart_of).toBe(first);
    expect(again.task_id).not.toBe(first);
  });

  it('runs an argv array without a shell, in a relative cwd', async () => {
    const id = await run({ command: ['sh', '-c', 'printf "%s|" "$0" "$PWD"', 'a b $HOME'], cwd: 'sub' });
    expect((await readAll(id)).data).toBe(`a b $HOME|${join(cwd, 'sub')}|`);
  });

  it('pages large output by offset (64 KiB by default) with a hint, never all at once', async () => {
    const id = await run({ command: 'seq 1 40000' });
    const expected = Array.from({ length: 40000 }, (_, i) => `${i + 1}\n`).join('');
    const { data, pages } = await readAll(id);
    expect(data).toBe(expected);
    expect(pages.length).toBe(Math.ceil(expected.length / 65536));
    expect(pages[0]?.data.length).toBe(65536);
    const first = await mcp.call('task_output', { task_id: id });
    expect(text(first)).toContain('call task_output with offset 65536 for more');
    const big = structured<Output>(await mcp.call('task_output', { task_id: id, offset: 10, limit: 1024 * 1024 }));
    expect(big.data).toBe(expected.slice(10));
    const tail = structured<Output>(await mcp.call('task_output', { task_id: id, tail_lines: 3 }));
    expect(tail.data).toBe('39998\n39999\n40000\n');
    expect(tail.next_offset).toBe(tail.size);
  });

  it('never splits a UTF-8 character across pages', async () => {
    const id = await run({ command: `printf 'x%.0s' 1; for i in $(seq 1 300); do printf 'é€😀'; done` });
    const expected = `x${'é€😀'.repeat(300)}`;
    const { data, pages } = await readAll(id, 17);
    expect(data).toBe(expected);
    expect(data).not.toContain('\uFFFD');
    for (const p of pages) expect(p.next_offset - p.offset).toBe(Buffer.byteLength(p.data));
    expect(pages.some((p) => p.next_offset - p.offset < 17 && !p.done)).toBe(true);
  });

  it('always moves on by at least one whole character and starts on one: a limit of 1 byte, an offset inside a character', async () => {
    const id = await run({ command: `printf 'a\\360\\237\\230\\200b\\342\\202\\254'` }); // a😀b€: 1 + 4 + 1 + 3 bytes
    const { data, pages } = await readAll(id, 1);
    expect(data).toBe('a😀b€');
    expect(pages.map((p) => [p.offset, p.next_offset])).toEqual([
      [0, 1],
      [1, 5],
      [5, 6],
      [6, 9],
    ]);
    const inside = structured<Output>(await mcp.call('task_output', { task_id: id, offset: 3, limit: 1 }));
    expect(inside).toMatchObject({ data: '😀', offset: 1, next_offset: 5, done: false });
    const last = structured<Output>(await mcp.call('task_output', { task_id: id, offset: 8, limit: 1 }));
    expect(last).toMatchObject({ data: '€', offset: 6, next_offset: 9, done: true });
  });

  it('sends input to a task started with stdin, and says so when a task has none', async () => {
    const id = await run({ command: 'read x; echo "got $x"', stdin: true });
    const sent = await mcp.call('task_input', { task_id: id, text: 'hi there' });
    expect(structured<{ bytes_sent: number }>(sent).bytes_sent).toBe(9);
    expect((await readAll(id)).data).toBe('got hi there\n');

    const closed = await run({ command: 'sleep 5' });
    const r = await mcp.call('task_input', { task_id: closed, text: 'y' });
    expect(r.isError).toBe(true);
    expect(text(r)).toContain('"stdin": true');
    await mcp.call('task_kill', { task_id: closed, signal: 'KILL' });
  });

  it('kills a task and reports it killed; lists tasks', async () => {
    const id = await run({ command: 'sleep 30', name: 'sleeper' });
    const k = structured<{ status: string; signal: string; exit_code: number }>(await mcp.call('task_kill', { task_id: id }));
    expect(k).toMatchObject({ status: 'killed', signal: 'SIGTERM', exit_code: 143 });
    const again = await mcp.call('task_kill', { task_id: id, signal: 'term' });
    expect(again.isError).toBe(true);
    expect(text(again)).toMatch(/not running/);
    const list = structured<{ tasks: { task_id: string; name: string | null; status: string }[]; total: number }>(await mcp.call('task_list'));
    expect(list.tasks.find((t) => t.task_id === id)).toMatchObject({ name: 'sleeper', status: 'killed' });
    expect(list.total).toBeGreaterThanOrEqual(list.tasks.length);
    const running = structured<{ tasks: unknown[] }>(await mcp.call('task_list', { all: false }));
    expect(running.tasks.length).toBeLessThan(list.tasks.length);
  });

  it('answers unknown ids and bad arguments with isError results and keeps serving', async () => {
    const cases: [string, Record<string, unknown>, RegExp][] = [
      ['task_output', { task_id: '99999' }, /no task 99999/],
      ['task_output', { task_id: '../../etc/passwd' }, /task ids are positive integers/],
      ['task_output', { task_id: '1', limit: 2 * 1024 * 1024 }, /limit|1048576/],
      ['task_output', { task_id: '1', offset: 0, tail_lines: 2 }, /offset or tail_lines/],
      ['task_output', { task_id: '1', offset: -1 }, /offset|greater than or equal/],
      ['task_run', {}, /command/],
      ['task_run', { command: '' }, /command is empty/],
      ['task_run', { command: ['definitely-not-a-command-nightshift'] }, /definitely-not-a-command-nightshift/],
      ['task_run', { command: 'true', cwd: '/nonexistent/nightshift' }, /does not exist/],
      ['task_run', { command: 'true', stall_after_seconds: 'soon' }, /stall_after_seconds|number/],
      ['task_input', { task_id: '99999', text: 'x' }, /no task 99999/],
      ['task_kill', { task_id: '99999' }, /no task 99999/],
      ['task_kill', { task_id: '1', signal: 'SIGBOGUS' }, /unknown signal "SIGBOGUS"/],
      ['memory_forget', { id: 'not-an-id' }, /memory ids look like/],
      ['no_such_tool', {}, /no_such_tool/],
    ];
    for (const [name, args, message] of cases) {
      const r = await mcp.call(name, args);
      expect(r.isError, `${name} ${JSON.stringify(args)}`).toBe(true);
      expect(text(r), `${name} ${JSON.stringify(args)}`).toMatch(message);
    }
    expect(alive(mcp.pid)).toBe(true);
    expect(structured<{ tasks: unknown[] }>(await mcp.call('task_list')).tasks.length).toBeGreaterThan(0);
  });

  it('surfaces a task waiting at a prompt as attention', async () => {
    const id = await run({ command: 'printf "Continue? [y/N] "; read x; echo "answer=$x"', stdin: true, stall_after_seconds: 1 });
    const seen = await until(
      async () => {
        const o = structured<Output & { attention?: { kind: string } }>(await mcp.call('task_output', { task_id: id }));
        return o.attention?.kind === 'prompt' ? o : undefined;
      },
      10_000,
      200,
    );
    expect(seen.data).toBe('Continue? [y/N] ');
    expect(text(await mcp.call('task_output', { task_id: id }))).toContain('task_input');
    await mcp.call('task_input', { task_id: id, text: 'y' });
    expect((await readAll(id)).data).toBe('Continue? [y/N] answer=y\n');
  });
});

describe('nightshift mcp: process and daemon', () => {
  it('exits 0 when the client closes its stdin', async () => {
    const p = spawn(process.execPath, [CLI, 'mcp'], { env: daemon.env, stdio: ['pipe', 'pipe', 'pipe'] });
    const init = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '0' } },
    };
    let out = '';
    p.stdout.on('data', (c: Buffer) => (out += c.toString()));
    p.stdin.write(`${JSON.stringify(init)}\n`);
    await until(() => out.includes('"serverInfo"'), 10_000);
    const code = new Promise<number | null>((r) => p.once('exit', (c) => r(c)));
    p.stdin.end();
    const timer = setTimeout(() => p.kill('SIGKILL'), 5000);
    expect(await code).toBe(0);
    clearTimeout(timer);
    expect(JSON.parse(out.trim().split('\n')[0] ?? '{}')).toMatchObject({ id: 1, result: { serverInfo: { name: 'nightshift' } } });
  });

  it('reports a daemon that is not running as an isError result (NIGHTSHIFT_NO_AUTOSTART=1)', async () => {
    const home = mkdtempSync('/tmp/ns-mcp-none-');
    const s = await startMcp({ ...stringEnv(), NIGHTSHIFT_HOME: home, NIGHTSHIFT_NO_AUTOSTART: '1' }, home);
    try {
      const r = await s.call('task_list');
      expect(r.isError).toBe(true);
      expect(text(r)).toMatch(/daemon is not running/);
      expect(alive(s.pid)).toBe(true);
    } finally {
      await s.close();
      rmSync(home, { recursive: true, force: true });
    }
  });

  it('starts the daemon itself when none answers', async () => {
    const auto = new TestDaemon();
    const s = await startMcp({ ...auto.env, NIGHTSHIFT_NO_AUTOSTART: '0' }, auto.home);
    let daemonPid: number | undefined;
    try {
      const r = await s.call('task_list');
      expect(text(r)).toBe('no tasks');
      daemonPid = (await auto.client.status()).pid;
      expect(s.stderr()).toContain('started the daemon in the background');
    } finally {
      await s.close();
      if (daemonPid) {
        process.kill(daemonPid, 'SIGTERM');
        await until(() => !alive(daemonPid ?? 0), 10_000);
      }
      await auto.cleanup();
    }
  });
});

describe('nightshift mcp: schedule tools', () => {
  it('adds a schedule that fires tasks in the server cwd, lists it, and removes it', async () => {
    const added = structured<{ schedule_id: string; next: string[] }>(
      await mcp.call('schedule_add', { cron: '* * * * * *', name: 'mcp-tick', command: 'pwd' }),
    );
    expect(added.schedule_id).toMatch(/^s[0-9]+$/);
    expect(added.next.length).toBeGreaterThan(0);
    const fired = await until(async () => {
      const l = structured<{ schedules: { schedule_id: string; last_task_id?: string }[] }>(await mcp.call('schedule_list'));
      return l.schedules.find((x) => x.schedule_id === added.schedule_id)?.last_task_id;
    }, 4000);
    const { data } = await readAll(fired);
    expect(data).toBe(`${cwd}\n`);
    const bad = await mcp.call('schedule_add', { cron: 'every day', command: 'true' });
    expect(bad.isError).toBe(true);
    expect(text(bad)).toContain('is not a cron expression');
    await mcp.call('schedule_remove', { schedule: 'mcp-tick' });
    expect(structured<{ schedules: unknown[] }>(await mcp.call('schedule_list')).schedules).toEqual([]);
  });
});

describe('nightshift mcp: workflow tools', () => {
  it('runs a workflow given as JSON in the server cwd and shows it; a bad one is an isError result naming the problem', async () => {
    const run = structured<{ workflow_id: string; tasks: { name: string; task_id: string }[] }>(
      await mcp.call('workflow_run', {
        workflow: JSON.stringify({ name: 'mcp-wf', tasks: { one: { command: 'pwd' }, two: { command: 'cat "$NIGHTSHIFT_OUTPUT_ONE"', needs: ['one'] } } }),
      }),
    );
    expect(run.workflow_id).toMatch(/^w[0-9]+$/);
    const two = run.tasks.find((t) => t.name === 'two')?.task_id ?? '';
    const shown = await until(async () => {
      const r = await mcp.call('workflow_show', { workflow_id: run.workflow_id });
      return structured<{ state: string }>(r).state === 'succeeded' && r;
    }, 10_000);
    expect(text(shown)).toMatch(new RegExp(`^workflow ${run.workflow_id} \\(mcp-wf\\): succeeded, 2/2 succeeded\nlayer 0\n  one #`));
    expect((await readAll(two)).data).toBe(`${cwd}\n`);
    const bad = await mcp.call('workflow_run', { workflow: 'tasks:\n  a: { command: "true", needs: [b] }\n' });
    expect(bad.isError).toBe(true);
    expect(text(bad)).toContain('workflow:2:');
    expect(text(bad)).toContain('unknown task "b"');
  });
});
