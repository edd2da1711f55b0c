import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { defer, killPid } from './cleanup.js';

/** The built CLI (what `nightshift` runs). */
export const CLI = resolve(import.meta.dirname, '../../dist/cli.js');

export interface Spawned {
  /** Wall time from spawn to exit. */
  ms: number;
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs `node ARGS…` (the same node binary as the bench) and times it from spawn to exit. The child
 * is killed by its pid if the run is interrupted or it outlives `timeoutMs`.
 */
export function timeNode(args: string[], env: Record<string, string>, timeoutMs = 60_000, input?: string): Promise<Spawned> {
  return timeProcess(process.execPath, args, { env, timeoutMs, ...(input !== undefined ? { input } : {}) });
}

/**
 * Runs CMD ARGS… (no shell) and times it from spawn to the close of its output. `input` is written
 * to its stdin (else stdin is /dev/null). Killed by its pid on interrupt or after `timeoutMs`.
 */
export function timeProcess(cmd: string, args: string[], o: { env: Record<string, string>; timeoutMs?: number; input?: string }): Promise<Spawned> {
  return new Promise((resolvePromise, reject) => {
    const t0 = performance.now();
    const p = spawn(cmd, args, { env: o.env, stdio: [o.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'] });
    const pid = p.pid;
    const drop = pid === undefined ? () => undefined : defer(() => killPid(pid));
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    p.stdout?.on('data', (c: Buffer) => out.push(c));
    p.stderr?.on('data', (c: Buffer) => err.push(c));
    if (o.input !== undefined) p.stdin?.end(o.input);
    const timer = setTimeout(() => {
      if (pid !== undefined) killPid(pid);
    }, o.timeoutMs ?? 60_000);
    p.once('error', (e) => {
      clearTimeout(timer);
      drop();
      reject(e);
    });
    // 'close' (not 'exit'): the output is complete, which is what a caller of the CLI waits for too.
    p.once('close', (code) => {
      const ms = performance.now() - t0;
      clearTimeout(timer);
      drop();
      resolvePromise({ ms, code, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') });
    });
  });
}

/** Runs the built CLI; throws with its stderr when it exits non-zero. */
export async function cli(args: string[], env: Record<string, string>, timeoutMs?: number): Promise<Spawned> {
  const r = await timeNode([CLI, ...args], env, timeoutMs);
  if (r.code !== 0) throw new Error(`nightshift ${args.join(' ')} exited ${r.code}: ${r.stderr.trim().slice(0, 2000)}`);
  return r;
}
