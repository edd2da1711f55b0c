import { spawn } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import type { ApiClient } from '../../src/client/api-client.js';
import type { TaskJson as Task } from '../../src/api/tasks.js';
import type { Paths } from '../../src/paths.js';
import { stringEnv, TestDaemon } from '../../test/helpers/daemon.js';
import { defer, killPid } from './cleanup.js';

export interface BenchDaemon {
  client: ApiClient;
  /** Pid of the daemon process (node dist/cli.js daemon). */
  pid: number;
  /** What `nightshift run` would send as the task environment: the caller's. */
  env: Record<string, string>;
  /** Environment for running the built CLI against this daemon (its NIGHTSHIFT_HOME, no autostart). */
  cliEnv: Record<string, string>;
  /** Its NIGHTSHIFT_HOME paths. */
  paths: Paths;
  /** From spawning the daemon to its first answer. */
  startMs: number;
}

/**
 * Runs `fn` against a fresh daemon (built dist/, temporary NIGHTSHIFT_HOME, the given config on top of
 * logLevel info). The daemon is stopped, tasks it left are killed by pid and the home is removed after,
 * also when `fn` throws or the run is interrupted.
 */
export async function withDaemon<T>(
  config: Record<string, unknown>,
  fn: (d: BenchDaemon) => Promise<T>,
  opts: { prepare?: (paths: Paths) => void; env?: Record<string, string> } = {},
): Promise<T> {
  const td = new TestDaemon({ logLevel: 'info', ...config }, opts.env ?? {});
  // A daemon finishes its in-flight requests before it exits on SIGTERM; a long one (a big import
  // cut off by the budget) is not waited for beyond 10 s: the daemon is then SIGKILLed by its pid.
  const stop = async () => {
    const pid = td.proc?.pid;
    const timer = pid === undefined ? undefined : setTimeout(() => killPid(pid), 10_000);
    try {
      await td.cleanup();
    } finally {
      clearTimeout(timer);
    }
  };
  const drop = defer(stop);
  try {
    // `prepare` may put state in the home before the daemon first reads it.
    opts.prepare?.(td.paths);
    const t0 = performance.now();
    await td.start();
    const startMs = performance.now() - t0;
    const pid = td.proc?.pid;
    if (pid === undefined) throw new Error('daemon has no pid');
    return await fn({ client: td.client, pid, env: stringEnv(), cliEnv: { ...td.env }, paths: td.paths, startMs });
  } finally {
    drop();
    await stop();
  }
}

/** Waits (long polls) until the task has ended. */
export async function waitEnded(client: ApiClient, id: string): Promise<Task> {
  for (;;) {
    const r = await client.wait(id, 300);
    if (!r.timedOut) return r.task;
  }
}

/** Runs `sh -c cmd` as the baseline: wall time from spawn to exit. */
export function timeShell(cmd: string, cwd: string): Promise<{ ms: number; code: number | null }> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const p = spawn('/bin/sh', ['-c', cmd], { cwd, stdio: ['ignore', 'ignore', 'inherit'] });
    const pid = p.pid;
    // Killed by pid only if the run is interrupted while it is alive; dropped as soon as it exits.
    const drop = pid === undefined ? () => undefined : defer(() => killPid(pid));
    p.once('error', reject);
    p.once('exit', (code) => {
      const ms = performance.now() - t0;
      drop();
      resolve({ ms, code });
    });
  });
}

/** The memory counts of the daemon's status (memories, episodes, sessions), once the memories are loaded. */
export async function memoryCounts(client: ApiClient): Promise<{ memories: number; episodes: number; sessions: number }> {
  for (;;) {
    const m = (await client.status()).memory;
    if (!m) throw new Error('the daemon status has no memory section');
    if (!m.loading) return m;
    await new Promise((r) => setTimeout(r, 20));
  }
}
