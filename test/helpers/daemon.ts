import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { ApiClient } from '../../src/client/api-client.js';
import { resolvePaths, type Paths } from '../../src/paths.js';
import { readStat } from '../../src/sys/proc.js';

export const CLI = resolve(import.meta.dirname, '../../dist/cli.js');

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** A real daemon in a temporary NIGHTSHIFT_HOME, driven through the built CLI and the typed client. */
export class TestDaemon {
  readonly home: string;
  readonly paths: Paths;
  readonly env: Record<string, string>;
  proc: ChildProcess | undefined;
  log = '';

  /** `opts.parent`: make the home inside this directory instead of /tmp (keep it short). */
  constructor(config: Record<string, unknown> = {}, extraEnv: Record<string, string> = {}, opts: { parent?: string } = {}) {
    // Short path: unix socket paths are limited to 107 bytes.
    this.home = mkdtempSync(join(opts.parent ?? '/tmp', 'ns-test-'));
    this.env = { ...stringEnv(), NIGHTSHIFT_HOME: this.home, NIGHTSHIFT_NO_AUTOSTART: '1', ...extraEnv };
    this.paths = resolvePaths(this.env);
    mkdirSync(join(this.home, 'config'), { recursive: true });
    // The transcript watcher is off unless a test turns it on: it must never read the real ~/.claude.
    writeFileSync(this.paths.configFile, JSON.stringify({ logLevel: 'debug', transcripts: { watch: false }, ...config }));
  }

  get client(): ApiClient {
    return new ApiClient({ socket: this.paths.socket });
  }

  /** Starts `nightshift daemon` and waits until it answers. */
  async start(args: string[] = []): Promise<void> {
    const proc = spawn(process.execPath, [CLI, 'daemon', ...args], { env: this.env, stdio: ['ignore', 'pipe', 'pipe'] });
    this.proc = proc;
    proc.stdout?.on('data', (c: Buffer) => (this.log += c.toString()));
    proc.stderr?.on('data', (c: Buffer) => (this.log += c.toString()));
    const deadline = Date.now() + 15_000;
    while (Date.now() < deadline) {
      if (proc.exitCode !== null) throw new Error(`daemon exited with ${proc.exitCode}: ${this.log}`);
      try {
        await this.client.status();
        return;
      } catch {
        await sleep(20);
      }
    }
    throw new Error(`daemon did not start: ${this.log}`);
  }

  /** SIGTERM (or another signal) and wait for the process to end. */
  async stop(signal: NodeJS.Signals = 'SIGTERM'): Promise<number | null> {
    const proc = this.proc;
    if (!proc || proc.exitCode !== null || proc.signalCode !== null) return proc?.exitCode ?? null;
    const ended = new Promise<number | null>((r) => proc.once('exit', (code) => r(code)));
    proc.kill(signal);
    return ended;
  }

  async restart(): Promise<void> {
    await this.stop();
    await this.start();
  }

  cli(args: string[], opts: { input?: string; timeoutMs?: number; env?: Record<string, string>; cwd?: string } = {}): Promise<CliResult> {
    return runCli(args, { ...this.env, ...(opts.env ?? {}) }, opts);
  }

  /** Stops the daemon, kills every task it left running (by pid) and removes the home. */
  async cleanup(): Promise<void> {
    await this.stop().catch(() => undefined);
    if (existsSync(this.paths.tasksDir)) {
      for (const id of readdirSync(this.paths.tasksDir)) {
        for (const f of ['child.pid']) {
          const file = join(this.paths.tasksDir, id, f);
          if (!existsSync(file)) continue;
          const pid = Number(readFileSync(file, 'utf8'));
          try {
            process.kill(-pid, 'SIGKILL');
          } catch {
            // already gone
          }
        }
      }
    }
    await sleep(50);
    rmSync(this.home, { recursive: true, force: true });
  }
}

export function runCli(args: string[], env: Record<string, string>, opts: { input?: string; timeoutMs?: number; cwd?: string } = {}): Promise<CliResult> {
  return new Promise((resolvePromise, reject) => {
    const p = spawn(process.execPath, [CLI, ...args], { env, stdio: ['pipe', 'pipe', 'pipe'], ...(opts.cwd ? { cwd: opts.cwd } : {}) });
    let stdout = '';
    let stderr = '';
    p.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    p.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const timer = setTimeout(() => {
      p.kill('SIGKILL');
      reject(new Error(`nightshift ${args.join(' ')} timed out; stderr: ${stderr}`));
    }, opts.timeoutMs ?? 30_000);
    // 'close', not 'exit': the process may end before all of its output has been read from the pipes.
    p.on('close', (code, signal) => {
      clearTimeout(timer);
      resolvePromise({ code: code ?? 128 + (signal ? 9 : 0), stdout, stderr });
    });
    p.stdin.end(opts.input ?? '');
  });
}

export function stringEnv(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !k.startsWith('NIGHTSHIFT_')) out[k] = v;
  return out;
}

export async function until<T>(fn: () => Promise<T | undefined | false> | T | undefined | false, timeoutMs = 10_000, stepMs = 20): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await sleep(stepMs);
  }
}

/** A factory of daemons that are all cleaned up after each test of the calling file. */
export function daemonsPerTest(afterEach: (fn: () => Promise<void>) => void): (config?: Record<string, unknown>) => TestDaemon {
  const daemons: TestDaemon[] = [];
  afterEach(async () => {
    await Promise.all(daemons.splice(0).map((d) => d.cleanup()));
  });
  return (config = {}) => {
    const d = new TestDaemon(config);
    daemons.push(d);
    return d;
  };
}

/** A factory of temporary directories (under /tmp, short paths) removed after each test of the calling file. */
export function tempDirsPerTest(afterEach: (fn: () => void) => void, prefix = 'ns-tmp-'): () => string {
  const dirs: string[] = [];
  afterEach(() => {
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });
  return () => {
    const d = mkdtempSync(join('/tmp', prefix));
    dirs.push(d);
    return d;
  };
}

/** The daemon's spawner: its child whose argv names it. */
export function spawnerOf(daemonPid: number): number | undefined {
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const pid = Number(name);
    if (readStat(pid)?.ppid !== daemonPid) continue;
    try {
      if (readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').includes('nightshift-spawner')) return pid;
    } catch {
      // gone meanwhile
    }
  }
  return undefined;
}
