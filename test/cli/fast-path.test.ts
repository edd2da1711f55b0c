import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseArgs, parseIngestArgs } from '../../src/cli/fast.js';
import { CLI, daemonsPerTest, until } from '../helpers/daemon.js';

const newDaemon = daemonsPerTest(afterEach);

function runBinary(args: string[], env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    // The file itself, not `node FILE`: its shebang and mode make it a program.
    const p = spawn(CLI, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    p.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    p.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    p.once('error', reject);
    p.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('the built binary', () => {
  it('is a program of its own: dist/cli.js runs through its shebang', async () => {
    const d = newDaemon();
    await d.start();
    const v = await runBinary(['--version'], d.env);
    expect(v.code, v.stderr).toBe(0);
    expect(v.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
    const r = await runBinary(['run', '--', 'echo', 'from the binary'], d.env);
    expect(r.code, r.stderr).toBe(0);
    const id = r.stdout.trim();
    expect((await runBinary(['wait', id], d.env)).code).toBe(0);
    expect((await runBinary(['output', id], d.env)).stdout).toBe('from the binary\n');
  });

  it('answers run, wait, output and ingest without loading a package: every require of the hot path is a Node built-in', async () => {
    const d = newDaemon();
    await d.start();
    const dir = mkdtempSync(join(tmpdir(), 'ns-loads-'));
    try {
      // Records every require() the bundle makes (a package such as string-width costs ~30 ms of start-up).
      const preload = join(dir, 'record.cjs');
      writeFileSync(
        preload,
        `const M = require('node:module'); const seen = []; const load = M._load;
M._load = function (request, ...rest) { seen.push(request); return load.call(this, request, ...rest); };
process.on('exit', () => require('node:fs').writeFileSync(process.env.LOADS_OUT, JSON.stringify(seen)));`,
      );
      const loads = async (args: string[]): Promise<string[]> => {
        const out = join(dir, 'loads.json');
        rmSync(out, { force: true });
        const r = await d.cli(args, { env: { NODE_OPTIONS: `--require ${preload}`, LOADS_OUT: out } });
        expect(r.code, r.stderr).toBe(0);
        return JSON.parse(readFileSync(out, 'utf8')) as string[];
      };
      const run = await loads(['run', '--', 'true']);
      expect(run).toContain('node:net'); // the recorder sees the bundle's requires
      const id = (await d.cli(['run', '--', 'echo', 'x'])).stdout.trim();
      // A transcript of a few typed lines: `ingest` is a script's command too (file by file).
      const transcript = join(dir, 'notes.jsonl');
      writeFileSync(transcript, '{"role":"user","content":"The API is written in Go."}\n{"role":"assistant","content":"Noted."}\n');
      const ingested = await loads(['ingest', transcript, '--format', 'messages', '--json']);
      for (const got of [run, await loads(['wait', id]), await loads(['output', id]), ingested]) {
        expect(got.filter((r) => r !== CLI && !isBuiltin(r))).toEqual([]);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('hands what the fast path does not parse to the full CLI, with the same outcome', async () => {
    const d = newDaemon();
    await d.start();
    // `--name build` is the fast path's; `--name=build` is commander's.
    for (const args of [['--name', 'build'], ['--name=build']]) {
      const r = await d.cli(['run', ...args, '--json', '--', 'true']);
      expect(r.code, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout)).toMatchObject({ name: 'build', command: ['true'] });
    }
    const help = await d.cli(['run', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Usage: nightshift run');
    const bad = await d.cli(['run', '--bogus', '--', 'true']);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain("unknown option '--bogus'");
    const neg = await d.cli(['output', '1', '--offset', '-5']);
    expect(neg.code).not.toBe(0);
    // `ingest`: the fast path's reading (options anywhere) and commander's (`--format=…`) give the same answer.
    const dir = mkdtempSync(join(tmpdir(), 'ns-fast-ingest-'));
    try {
      const transcript = join(dir, 'notes.jsonl');
      writeFileSync(transcript, '{"role":"user","content":"The API is written in Go."}\n{"role":"assistant","content":"Noted."}\n');
      const fast = await d.cli(['ingest', transcript, '--format', 'messages', '--json']);
      expect(fast.code, fast.stderr).toBe(0);
      expect(JSON.parse(fast.stdout)).toMatchObject({ format: 'messages', messages: 2, unchanged: false });
      const full = await d.cli(['ingest', '--format=messages', '--json', transcript]);
      expect(full.code, full.stderr).toBe(0);
      expect(JSON.parse(full.stdout)).toMatchObject({ format: 'messages', unchanged: true });
      const wrong = await d.cli(['ingest', '--format', 'bogus', transcript]);
      expect([wrong.code, wrong.stderr]).toEqual([2, expect.stringContaining('--format must be one of')]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('starts the daemon when none runs (the full CLI takes over), then answers by the fast path', async () => {
    const d = newDaemon(); // not started
    const env = { ...d.env, NIGHTSHIFT_NO_AUTOSTART: '' };
    const r = await d.cli(['run', '--', 'echo', 'hi'], { env });
    try {
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toContain('started the daemon');
      expect((await d.cli(['wait', r.stdout.trim()])).code).toBe(0);
    } finally {
      const pid = (await d.client.status()).pid;
      process.kill(pid, 'SIGTERM');
      await until(() => {
        try {
          process.kill(pid, 0);
          return false;
        } catch {
          return true;
        }
      });
    }
  });
});

describe('parseIngestArgs (the fast path)', () => {
  it('reads the options anywhere among the files, as commander does, and -- ends them', () => {
    expect(parseIngestArgs(['a.jsonl', '--format', 'codex', 'b.jsonl', '--json'])).toEqual({
      files: ['a.jsonl', 'b.jsonl'],
      opts: { format: 'codex', json: true },
    });
    expect(parseIngestArgs(['--reingest', '--', '--odd-name.jsonl'])).toEqual({ files: ['--odd-name.jsonl'], opts: { reingest: true } });
  });

  it('leaves to commander help, unknown or joined options, a bad or missing value, and no file', () => {
    for (const argv of [
      ['--help'],
      ['a.jsonl', '-h'],
      ['--bogus', 'a.jsonl'],
      ['--format=codex', 'a.jsonl'],
      ['--format', 'bogus', 'a.jsonl'],
      ['a.jsonl', '--project'],
      ['--json'],
    ]) {
      expect(parseIngestArgs(argv), argv.join(' ')).toBeNull();
    }
  });
});

describe('parseArgs (the fast path)', () => {
  const flags = { '--name': { key: 'name', parse: (v: string) => v }, '--no-stdin': { key: 'stdin', negates: true }, '--json': { key: 'json' } };
  const any = { min: 1, max: Infinity };

  it('reads plain options, then the command after -- or the first word', () => {
    expect(parseArgs(['--name', 'x', '--no-stdin', '--', 'ls', '-la'], flags, { stdin: true }, any)).toEqual({
      opts: { name: 'x', stdin: false },
      args: ['ls', '-la'],
    });
    expect(parseArgs(['--json', 'make', 'all'], flags, {}, any)).toEqual({ opts: { json: true }, args: ['make', 'all'] });
  });

  it('leaves to commander anything else: help, unknown or joined options, options after the command, a missing value or argument', () => {
    for (const argv of [['--help'], ['-h', 'x'], ['--bogus', 'x'], ['--name=x', 'ls'], ['ls', '--json'], ['--name'], ['--name', '--json', 'x'], []]) {
      expect(parseArgs(argv, flags, {}, any), argv.join(' ')).toBeNull();
    }
  });
});
