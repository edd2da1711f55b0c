/**
 * task-spooler (`tsp` on Debian), the peer of the task benchmarks: a small C task queue with a server.
 * Each bench starts its own server on a private socket (TS_SOCKET, TMPDIR under the bench's temp dir)
 * and tells it to quit when done or interrupted. Not installed by the benches: without it the tsp
 * figures are skipped, and the run says so.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { basename, delimiter, join } from 'node:path';
import { defer } from './cleanup.js';
import { timeProcess } from './spawn.js';

/** The task-spooler binary, or why there is none. */
export function findTsp(env: Record<string, string>): { bin: string } | { missing: string } {
  for (const name of ['tsp', 'ts']) {
    for (const dir of (env['PATH'] ?? '').split(delimiter)) {
      const bin = join(dir, name);
      if (!dir || !existsSync(bin)) continue;
      const v = spawnSync(bin, ['-V'], { env, encoding: 'utf8', timeout: 5000 });
      if (`${v.stdout}${v.stderr}`.includes('Task Spooler')) return { bin };
    }
  }
  return {
    missing:
      'task-spooler not found (neither tsp nor ts on PATH says "Task Spooler" to -V); install it with `apt-get install task-spooler` to measure the peer',
  };
}

export interface TspServer {
  bin: string;
  version: string;
  env: Record<string, string>;
  /** The server process (found by its TS_SOCKET in /proc/<pid>/environ right after it started). */
  pid: number;
  /** `tsp [args…]`: the job id it prints. */
  add(args: string[]): Promise<string>;
  /** `tsp -w ID` (its exit status is the job's). */
  wait(id: string): Promise<number | null>;
  stop(): void;
}

/** Starts a tsp server with `slots` slots on a socket in `dir`; room for `jobs` jobs queued and finished. */
export async function startTsp(bin: string, dir: string, slots: number, jobs: number, base: Record<string, string>): Promise<TspServer> {
  const env = { ...base, TS_SOCKET: join(dir, 'tsp.sock'), TMPDIR: join(dir, 'tsp-out'), TS_MAXFINISHED: String(jobs + 10), TS_MAXCONN: String(jobs + 50) };
  mkdirSync(env.TMPDIR, { recursive: true });
  const stop = () => void spawnSync(bin, ['-K'], { env, timeout: 5000 });
  const drop = defer(stop);
  // `-S N` starts the server (forked off by the first client) and sets its slots.
  const s = spawnSync(bin, ['-S', String(slots)], { env, timeout: 5000 });
  if (s.status !== 0) throw new Error(`tsp -S ${slots} exited ${s.status}`);
  const pid = serverPid(bin, env.TS_SOCKET);
  const version = spawnSync(bin, ['-V'], { env, encoding: 'utf8' }).stdout.split('\n')[0] ?? '';
  return {
    bin,
    version,
    env,
    pid,
    async add(args) {
      const r = await timeProcess(bin, args, { env, timeoutMs: 8000 });
      if (r.code !== 0) throw new Error(`tsp ${args.slice(0, 3).join(' ')} exited ${r.code}: ${r.stderr.slice(0, 300)}`);
      return r.stdout.trim();
    },
    async wait(id) {
      return (await timeProcess(bin, ['-w', id], { env, timeoutMs: 600_000 })).code;
    },
    stop() {
      drop();
      stop();
    },
  };
}

/** The only tsp process carrying this socket in its environment right after `-S` returned: the server. */
function serverPid(bin: string, socket: string): number {
  const found: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const argv0 = readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0')[0] ?? '';
      if (basename(argv0) !== basename(bin)) continue;
      if (readFileSync(`/proc/${name}/environ`, 'utf8').split('\0').includes(`TS_SOCKET=${socket}`)) found.push(Number(name));
    } catch {
      // gone meanwhile, or not ours
    }
  }
  if (found.length !== 1) throw new Error(`expected one tsp server on ${socket}, found ${found.length}`);
  return found[0] as number;
}
