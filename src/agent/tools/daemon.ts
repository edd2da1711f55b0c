/**
 * Talking to the daemon from inside an agent run. The run outlives a daemon restart, so a call that
 * finds no daemon is tried again for a while; a call the daemon may have seen (the connection broke
 * mid-request) is tried again only when repeating it is harmless.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { isFinished, type Task } from '../../api/tasks.js';
import type { ApiClient } from '../../api/client.js';
import { AppError } from '../../errors.js';

const RETRY_FOR_MS = 20_000;
const RETRY_STEP_MS = 250;

/** `idempotent`: safe to repeat after a broken connection (reads, waits, kills). */
export async function daemonCall<T>(fn: () => Promise<T>, idempotent: boolean): Promise<T> {
  const deadline = Date.now() + RETRY_FOR_MS;
  for (;;) {
    try {
      return await fn();
    } catch (err) {
      const retry = err instanceof AppError && (err.code === 'daemon_unavailable' || (idempotent && err.code === 'connection_lost'));
      if (!retry || Date.now() > deadline) throw err;
      await sleep(RETRY_STEP_MS);
    }
  }
}

/** Waits up to `seconds` for the task to end; the task as it is then. */
export async function waitUpTo(client: ApiClient, id: string, seconds: number): Promise<Task> {
  const deadline = Date.now() + seconds * 1000;
  for (;;) {
    const left = Math.max(0, (deadline - Date.now()) / 1000);
    const r = await daemonCall(() => client.wait(id, Math.min(left, 300)), true);
    if (isFinished(r.task) || Date.now() >= deadline) return r.task;
  }
}

export const ANSI = /\u001b\[[0-9;?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)/g;

/** Terminal output as text for the model: colours and cursor codes out, lone CRs as line breaks. */
export function plainText(data: Buffer | string): string {
  return (typeof data === 'string' ? data : data.toString('utf8')).replace(ANSI, '').replace(/\r(?!\n)/g, '\n');
}

export function humanSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

export function statusText(t: Task): string {
  switch (t.status) {
    case 'exited':
      return `exit code ${t.exitCode}`;
    case 'killed':
      return `killed by ${t.signal}${t.reason ? ` (${t.reason})` : ''}`;
    case 'failed_to_start':
      return `failed to start: ${t.error}`;
    case 'lost':
      return `lost: ${t.reason}`;
    case 'running':
      return t.attention ? `running, ${t.attention.kind === 'prompt' ? 'waiting at a prompt' : 'silent'}` : 'running';
    default:
      return t.status;
  }
}

/** A task name from a command line: one line, at most 200 characters, no control characters. */
export function taskLabel(prefix: string, command: string): string {
  const t = `${prefix}${command.replace(/[\u0000-\u001f\u007f]+/g, ' ').replace(/\s+/g, ' ').trim()}`;
  return t.length > 200 ? `${t.slice(0, 199)}…` : t;
}
