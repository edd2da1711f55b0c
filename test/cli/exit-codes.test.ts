/**
 * Exit codes as docs/cli.md § Exit codes documents them, for every command: the commands are read from
 * `--help`, so a new command gets its rows without anyone writing them.
 */
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, runCli, stringEnv, TestDaemon, type CliResult } from '../helpers/daemon.js';

const env = { ...stringEnv(), NIGHTSHIFT_HOME: '/nonexistent/nightshift-exit-codes', NIGHTSHIFT_NO_AUTOSTART: '1' };

interface Cmd {
  path: string[];
  /** The arguments of the usage line: `<id>`, `[text]`, `<command...>`. */
  args: string[];
  subcommands: string[];
  /** Its --help printed a usage line (a row built from an empty help would test nothing). */
  usage: boolean;
}

/** At most 4 CLI processes at a time: each is a Node start on a shared machine. */
let running = 0;
const waiting: (() => void)[] = [];
async function limited<T>(fn: () => Promise<T>): Promise<T> {
  if (running >= 4) await new Promise<void>((r) => waiting.push(r));
  running++;
  try {
    return await fn();
  } finally {
    running--;
    waiting.shift()?.();
  }
}

/** Every command, from the help of the program and of each group. */
async function commands(path: string[] = []): Promise<Cmd[]> {
  const help = (await limited(() => runCli([...path, '--help'], env))).stdout;
  const usage = /^Usage: nightshift(?: [\w-]+)*? (?:\[options\] )?(.*)$/m.exec(help)?.[1] ?? '';
  const section = /\nCommands:\n([\s\S]*?)(?:\n\n|$)/.exec(help)?.[1] ?? '';
  const subcommands = [...section.matchAll(/^ {2}([\w-]+)/gm)].map((m) => m[1] as string).filter((n) => n !== 'help');
  const self: Cmd = {
    path,
    args: usage.split(' ').filter((a) => /^[<[]/.test(a) && a !== '[command]'),
    subcommands,
    usage: help.startsWith('Usage: nightshift'),
  };
  const below = await Promise.all(subcommands.map((s) => commands([...path, s])));
  return [self, ...below.flat()];
}

/** Runs the rows a few at a time: each is a process. */
function runAll(rows: string[][], e = env): Promise<CliResult[]> {
  return Promise.all(rows.map((r) => limited(() => runCli(r, e))));
}

function expectCodes(rows: string[][], results: CliResult[], code: number, stderr?: (row: string[]) => RegExp): void {
  const wrong = rows
    .map((row, i) => ({ row: row.join(' '), r: results[i] as CliResult }))
    .filter(({ row, r }) => r.code !== code || (stderr && !stderr(row.split(' ')).test(r.stderr)))
    .map(({ row, r }) => `nightshift ${row} → ${r.code}: ${r.stderr.trim().split('\n')[0]}`);
  expect(wrong).toEqual([]);
}

describe('exit codes of every command', () => {
  let all: Cmd[] = [];
  beforeAll(async () => {
    all = await commands();
  }, 60_000);

  it('finds the commands (the table below is built from them)', () => {
    const names = all.map((c) => c.path.join(' '));
    for (const n of ['run', 'output', 'memories list', 'memories import', 'dream show', 'hook session-end', 'service install', 'integrate codex'])
      expect(names).toContain(n);
    expect(all.length).toBeGreaterThan(35);
    expect(all.filter((c) => !c.usage).map((c) => c.path.join(' '))).toEqual([]);
  });

  it('usage errors exit 2: an unknown option, a missing or extra argument, anywhere', async () => {
    const leaves = all.filter((c) => c.subcommands.length === 0);
    const rows: string[][] = [];
    const why: RegExp[] = [];
    for (const c of leaves) {
      rows.push([...c.path, '--no-such-option']);
      why.push(/unknown option '--no-such-option'/);
      const required = c.args.filter((a) => a.startsWith('<'));
      if (required.length > 0) {
        rows.push([...c.path, ...required.slice(0, -1).map(() => '1')]);
        why.push(/missing required argument/);
      }
      if (!c.args.some((a) => a.includes('...'))) {
        rows.push([...c.path, ...c.args.map(() => '1'), 'extra']);
        why.push(/too many arguments|unknown command 'extra'/);
      }
    }
    const results = await runAll(rows);
    const wrong = rows
      .map((row, i) => ({ row, r: results[i] as CliResult, why: why[i] as RegExp }))
      .filter(({ r, why }) => r.code !== 2 || !why.test(r.stderr));
    expect(wrong.map(({ row, r }) => `nightshift ${row.join(' ')} → ${r.code}: ${r.stderr.trim().split('\n')[0]}`)).toEqual([]);
  }, 120_000);

  it('an unknown command exits 2 and lists the commands there are, in every group', async () => {
    const groups = all.filter((c) => c.subcommands.length > 0);
    expect(groups.map((g) => g.path.join(' '))).toEqual(expect.arrayContaining(['', 'memories', 'dream', 'hook', 'service', 'integrate']));
    const rows = groups.map((g) => [...g.path, 'bogus']);
    const results = await runAll(rows);
    groups.forEach((g, i) => {
      const r = results[i] as CliResult;
      expect(r.code, `${g.path.join(' ')} bogus`).toBe(2);
      expect(r.stderr).toContain(
        `unknown command 'bogus' for 'nightshift${g.path.length ? ` ${g.path.join(' ')}` : ''}'; the commands are: ${g.subcommands.join(', ')}`,
      );
    });
  }, 60_000);

  it('a bad option value exits 2 and says what is wrong', async () => {
    const rows: [string[], RegExp][] = [
      [['output', '1', '--offset', 'x'], /--offset must be a whole number from 0 to /],
      [['output', '1', '--limit', '0'], /--limit must be a whole number from 1 to 16777216/],
      [['tail', '1', '-n', 'ten'], /--lines must be a whole number from 0 to /],
      [['run', '--stall-after', 'soon', '--', 'true'], /--stall-after must be/],
      [['run', '--env', 'NOEQUALS', '--', 'true'], /--env takes KEY=VALUE/],
      [['wait', '1', '--timeout', 'forever'], /--timeout must be/],
      [['recall', '--budget', 'lots'], /--budget must be/],
      [['recall', '--format', 'html'], /--format must be one of/],
      [['search', 'x', '--limit', 'all'], /--limit must be/],
      [['remember', '--type', 'whim', 'x'], /--type must be one of/],
      [['remember', '--user', '--project', '.', 'x'], /--user cannot be combined/],
      [['ingest', 'f', '--format', 'word'], /--format must be one of/],
      [['agent', '--max-turns', '0', '--', 'x'], /--max-turns must be a whole number from 1 to /],
      [['agent'], /no task given/],
    ];
    const results = await runAll(rows.map(([r]) => r));
    expectCodes(
      rows.map(([r]) => r),
      results,
      2,
      (row) => rows.find(([r]) => r.join(' ') === row.join(' '))?.[1] ?? /./,
    );
  }, 60_000);

  it('help and version exit 0', async () => {
    // The groups' help was read above already (exit 0 asserted here for them and a few leaves).
    const rows = [
      ['--version'],
      ['help'],
      ['help', 'run'],
      ['run', '--help'],
      ['hook', 'session-end', '--help'],
      ...all.filter((c) => c.subcommands.length > 0).map((c) => [...c.path, '--help']),
    ];
    expectCodes(rows, await runAll(rows), 0);
  }, 120_000);
});

describe('a reader that stops early', () => {
  it('ends the command quietly (no EPIPE stack trace)', async () => {
    const p = spawn(process.execPath, [CLI, 'integrate', '--help'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    p.stdout.destroy(); // like `| head -0`: the read end is closed before anything is written
    let stderr = '';
    p.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const code = await new Promise<number | null>((r) => p.on('exit', (c) => r(c)));
    expect(stderr).not.toMatch(/EPIPE|Unhandled/);
    expect(code).toBe(0);
  });
});

describe('exit codes against a daemon', () => {
  const d = new TestDaemon();
  beforeAll(() => d.start(), 30_000);
  afterAll(() => d.cleanup());

  it('0 when done, 1 when it cannot be done (unknown id, conflict, no daemon), 2 for input the daemon refuses, 124 when a wait times out', async () => {
    const id = (await d.cli(['run', '--no-stdin', '--', 'sleep', '30'])).stdout.trim();
    const rows: [string[], number][] = [
      [['show', id], 0],
      [['show', '999'], 1],
      [['memories', 'show', 'm1a2b3c4d5e6f'], 1],
      [['memories', 'show', 'm-nope'], 2], // not an id at all
      [['rm', id], 1], // still running: a conflict
      [['wait', id, '--timeout', '0.2'], 124],
      [['run', '--cwd', '/nonexistent/dir', '--', 'true'], 2],
      [['run', '--', 'no-such-command-anywhere'], 2],
      [['output', id, '--limit', '0'], 2],
      [['kill', id, '--signal', 'SIGNOPE'], 2],
      [['kill', id], 0],
    ];
    const results: CliResult[] = [];
    for (const [row] of rows) results.push(await d.cli(row));
    const wrong = rows.map(([row, code], i) => ({ row, code, r: results[i] as CliResult })).filter(({ code, r }) => r.code !== code);
    expect(wrong.map(({ row, code, r }) => `nightshift ${row.join(' ')} → ${r.code} (want ${code}): ${r.stderr.trim()}`)).toEqual([]);
    const down = await runCli(['status'], env);
    expect(down.code).toBe(1);
    expect(down.stderr).toMatch(/daemon/);
  }, 60_000);
});
