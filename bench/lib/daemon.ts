import { spawn } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import type { ApiClient } from '../../src/api/client.js';
import type { Task } from '../../src/api/tasks.js';
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
}

/**
 * Runs `fn` against a fresh daemon (built dist/, temporary NIGHTSHIFT_HOME, the given config on top of
 * logLevel info). The daemon is stopped, tasks it left are killed by pid and the home is removed after,
 * also when `fn` throws or the run is interrupted.
 */
export async function withDaemon<T>(config: Record<string, unknown>, fn: (d: BenchDaemon) => Promise<T>): Promise<T> {
  const td = new TestDaemon({ logLevel: 'info', ...config });
  const drop = defer(() => td.cleanup());
  try {
    await td.start();
    const pid = td.proc?.pid;
    if (pid === undefined) throw new Error('daemon has no pid');
    return await fn({ client: td.client, pid, env: stringEnv(), cliEnv: { ...td.env } });
  } finally {
    drop();
    await td.cleanup();
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
