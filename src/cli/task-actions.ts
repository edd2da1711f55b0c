/**
 * What `run`, `output` and `wait` do, given a way to reach the daemon: commander's commands call
 * these with the full client, the fast path (cli/fast.ts) with the light one. Zod-free on purpose.
 */
import { endedAs, isFinished, shellExitCode } from '../api/task-status.js';
import type { ApiClient } from '../client/api-client.js';
import { callerEnv } from '../client/env.js';
import { waitUpTo } from '../client/wait.js';
import { AppError } from '../errors.js';
import { printJson } from './print-json.js';
import { resolvePath } from './values.js';

/** The calls these commands make; ApiClient and LightClient both have them. */
export type TaskClient = Pick<ApiClient, 'run' | 'output' | 'wait'>;
export type TaskCaller = <T>(fn: (c: TaskClient) => Promise<T>, idempotent?: boolean) => Promise<T>;

export interface RunOptions {
  name?: string;
  cwd?: string;
  env: Record<string, string>;
  stallAfter?: number;
  stdin: boolean;
  json?: boolean;
  after?: string[];
  /** `--after-any ID,…`: start once they ended, in any state. */
  afterAny?: string[];
  group?: string;
  /** `--label K=V`, repeatable. */
  label?: Record<string, string>;
  /** Seconds. */
  timeout?: number;
  retry?: number;
  /** Seconds. */
  retryDelay?: number;
}

export async function runTask(call: TaskCaller, command: string[], o: RunOptions): Promise<void> {
  const task = await call((c) =>
    c.run({
      command,
      cwd: o.cwd ? resolvePath(o.cwd) : process.cwd(),
      env: { ...callerEnv(), ...o.env },
      stdin: o.stdin,
      ...(o.name ? { name: o.name } : {}),
      ...(o.stallAfter !== undefined ? { stallAfterSeconds: o.stallAfter } : {}),
      ...dependencies(o),
      ...(o.group ? { group: o.group } : {}),
      ...(o.label ? { labels: o.label } : {}),
      ...(o.timeout !== undefined ? { timeoutSeconds: o.timeout } : {}),
      ...(o.retry !== undefined ? { retry: o.retry } : {}),
      ...(o.retryDelay !== undefined ? { retryDelaySeconds: o.retryDelay } : {}),
    }),
  );
  const failed = endedAs(task, 'failed_to_start');
  if (failed) {
    throw new AppError('spawn_failed', `task ${task.id} failed to start: ${failed.error}`);
  }
  if (o.json) printJson(task);
  else process.stdout.write(`${task.id}\n`);
}

function dependencies(o: RunOptions): { after?: string[]; afterAny?: boolean } {
  if (o.after && o.afterAny) throw new AppError('bad_request', 'give either --after or --after-any, not both');
  if (o.after) return { after: o.after };
  if (o.afterAny) return { after: o.afterAny, afterAny: true };
  return {};
}

export interface OutputOptions {
  offset: number;
  limit?: number;
  json?: boolean;
}

export async function printOutput(call: TaskCaller, id: string, o: OutputOptions): Promise<void> {
  // JSON carries text: the daemon reads it in whole characters (raw bytes are written as they are).
  const { data, meta } = await call(
    (c) => c.output(id, { offset: o.offset, ...(o.limit !== undefined ? { limit: o.limit } : {}), text: Boolean(o.json) }),
    true,
  );
  if (o.json) printJson({ data: data.toString('utf8'), ...meta });
  else process.stdout.write(data);
}

export interface WaitOptions {
  timeout?: number;
  json?: boolean;
}

export async function waitTask(call: TaskCaller, id: string, o: WaitOptions): Promise<void> {
  const task = await waitUpTo(call, id, o.timeout);
  if (o.json) printJson(task);
  if (!isFinished(task)) {
    process.stderr.write(`nightshift: task ${id} is still ${task.state} after ${o.timeout}s\n`);
    process.exitCode = 124;
    return;
  }
  process.exitCode = shellExitCode(task) ?? 1;
}
