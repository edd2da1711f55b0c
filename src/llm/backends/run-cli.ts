/**
 * Runs an agent CLI once for a model call: its own process group (so the CLI's own children end
 * with it), only the environment it is given, the input on stdin, stdout and stderr collected up
 * to a cap, ended (the group of the pid spawned: SIGTERM, then SIGKILL) at the deadline or on abort.
 * Never rejects: a CLI that cannot start is `spawnError`.
 */
import { spawn } from 'node:child_process';

export interface CliRunOptions {
  binary: string;
  args: string[];
  env: Record<string, string>;
  cwd: string;
  input: string;
  timeoutMs: number;
  signal?: AbortSignal;
  /** Bytes of stdout (and of stderr) kept; the rest is dropped. */
  maxOutputBytes?: number;
}

export interface CliRunResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  aborted: boolean;
  spawnError?: string;
}

/** Grace between SIGTERM and SIGKILL. */
const KILL_GRACE_MS = 2000;

function collector(max: number): { add(c: Buffer): void; text(): string } {
  const chunks: Buffer[] = [];
  let size = 0;
  return {
    add(c) {
      if (size >= max) return;
      chunks.push(c.subarray(0, max - size));
      size += Math.min(c.length, max - size);
    },
    text: () => Buffer.concat(chunks).toString('utf8'),
  };
}

export function runCli(o: CliRunOptions): Promise<CliRunResult> {
  return new Promise((resolve) => {
    const max = o.maxOutputBytes ?? 8 * 1024 * 1024;
    const out = collector(max);
    const err = collector(64 * 1024);
    let timedOut = false;
    let aborted = false;
    let spawnError: string | undefined;
    const child = spawn(o.binary, o.args, { cwd: o.cwd, env: o.env, stdio: ['pipe', 'pipe', 'pipe'], detached: true });
    const pid = child.pid;
    const killGroup = (sig: NodeJS.Signals) => {
      if (pid === undefined) return;
      try {
        process.kill(-pid, sig);
      } catch {
        // the group is gone already
      }
    };
    let killTimer: NodeJS.Timeout | undefined;
    const end = () => {
      killGroup('SIGTERM');
      killTimer ??= setTimeout(() => killGroup('SIGKILL'), KILL_GRACE_MS);
    };
    const deadline = setTimeout(() => {
      timedOut = true;
      end();
    }, o.timeoutMs);
    const onAbort = () => {
      aborted = true;
      end();
    };
    if (o.signal?.aborted) onAbort();
    o.signal?.addEventListener('abort', onAbort, { once: true });
    child.stdout.on('data', (c: Buffer) => out.add(c));
    child.stderr.on('data', (c: Buffer) => err.add(c));
    child.stdin.on('error', () => undefined); // a CLI that exits without reading its input
    child.on('error', (e) => {
      spawnError = e.message;
    });
    child.on('close', (code, signal) => {
      clearTimeout(deadline);
      // The CLI is gone; what it left in its group is not: end that too, at once.
      if (killTimer) clearTimeout(killTimer);
      if (timedOut || aborted) killGroup('SIGKILL');
      o.signal?.removeEventListener('abort', onAbort);
      resolve({ code, signal, stdout: out.text(), stderr: err.text(), timedOut, aborted, ...(spawnError !== undefined && { spawnError }) });
    });
    child.stdin.end(o.input);
  });
}
