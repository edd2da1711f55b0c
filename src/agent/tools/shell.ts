/**
 * bash: a command in the foreground with a timeout. Every call is a daemon task (output on disk,
 * visible in `nightshift ps`), waited on for the timeout; a command still running then is not
 * killed: it goes on as a background task the model reads with task_output, by offset.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { z } from 'zod';
import { endedAs, isFinished, type Task } from '../../api/tasks.js';
import { humanSize, statusText } from '../../client/format.js';
import { daemonCall, retrying } from '../../client/retrying.js';
import { outputForModel } from '../../client/task-tools/render.js';
import { waitUpTo } from '../../client/wait.js';
import { defineTool, failure, type ToolContext, type ToolResult } from './types.js';

export const BASH_DEFAULT_TIMEOUT_S = 120;
export const BASH_MAX_TIMEOUT_S = 600;
/** Output up to this size goes to the model whole (the context library saves large output to disk). */
const WHOLE_OUTPUT_MAX = 1024 * 1024;
/** Beyond it, the tail: errors and summaries are at the end. */
const TAIL_BYTES = 64 * 1024;
/** Of a command moved to the background, the output so far. */
const RUNNING_TAIL_BYTES = 8 * 1024;

export const SHELL = ['/bin/bash', '/usr/bin/bash'].find((p) => existsSync(p)) ?? '/bin/sh';

/** A task name from a command line: one line, at most 200 characters, no control characters. */
export function taskLabel(prefix: string, command: string): string {
  const t = `${prefix}${command
    .replace(/[\u0000-\u001f\u007f]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()}`;
  return t.length > 200 ? `${t.slice(0, 199)}…` : t;
}

export async function startCommand(ctx: ToolContext, command: string, opts: { cwd?: string; stdin: boolean; label: string }): Promise<Task> {
  const cwd = opts.cwd ? resolve(ctx.cwd, opts.cwd) : ctx.cwd;
  return daemonCall(
    () => ctx.client.run({ command: [SHELL, '-c', command], cwd, env: ctx.env, name: taskLabel(opts.label, command), stdin: opts.stdin }),
    false,
  );
}

const input = z.object({
  command: z.string().min(1, 'command is empty'),
  timeout_seconds: z.number().positive().max(BASH_MAX_TIMEOUT_S).optional(),
  cwd: z.string().min(1).optional(),
});

export async function runBash(args: z.infer<typeof input>, ctx: ToolContext): Promise<ToolResult> {
  const timeout = args.timeout_seconds ?? BASH_DEFAULT_TIMEOUT_S;
  const started = await startCommand(ctx, args.command, { ...(args.cwd ? { cwd: args.cwd } : {}), stdin: false, label: `agent ${ctx.taskId} bash: ` });
  const failed = endedAs(started, 'failed_to_start');
  if (failed) return failure(`the command could not start: ${failed.error}`);
  ctx.foreground.add(started.id);
  let task: Task;
  try {
    task = await waitUpTo(retrying(ctx.client), started.id, timeout);
  } finally {
    ctx.foreground.delete(started.id);
  }
  if (task.state === 'queued') {
    return {
      content: `[still queued after ${timeout}s: the daemon runs at most maxParallel tasks at once. It starts when a slot frees, as background task ${task.id}; read it with task_output {"task_id": "${task.id}", "offset": 0} or stop it with task_kill.]`,
    };
  }
  if (!isFinished(task)) {
    const out = await outputForModel(retrying(ctx.client), task.id, 'task_output', RUNNING_TAIL_BYTES, RUNNING_TAIL_BYTES);
    const next = out.size;
    return {
      content:
        `${out.text}${out.text && !out.text.endsWith('\n') ? '\n' : ''}` +
        `[still running after ${timeout}s, so it was moved to background task ${task.id} (not killed). ` +
        `Output so far: ${humanSize(next)}. Read more with task_output {"task_id": "${task.id}", "offset": ${next}}; ` +
        `wait with task_wait, stop it with task_kill.]`,
    };
  }
  const out = await outputForModel(retrying(ctx.client), task.id, 'task_output', WHOLE_OUTPUT_MAX, TAIL_BYTES);
  const ok = endedAs(task, 'exited')?.exitCode === 0;
  const body = out.text === '' ? '(no output)\n' : out.text.endsWith('\n') ? out.text : `${out.text}\n`;
  return { content: `${out.note ? `${out.note}\n` : ''}${body}[${statusText(task)}]`, ...(ok ? {} : { is_error: true }) };
}

export const bashTool = defineTool({
  name: 'bash',
  description:
    `Run a shell command (bash -c) in the working directory and return its output (stdout and stderr) and exit status. ` +
    `Waits up to timeout_seconds (default ${BASH_DEFAULT_TIMEOUT_S}, max ${BASH_MAX_TIMEOUT_S}); a command still running then keeps running ` +
    `as a background task you can read with task_output. stdin is empty: use non-interactive flags. For servers and watchers use task_run.`,
  inputSchema: {
    type: 'object',
    properties: {
      command: { type: 'string' },
      timeout_seconds: { type: 'number', description: `default ${BASH_DEFAULT_TIMEOUT_S}, max ${BASH_MAX_TIMEOUT_S}` },
      cwd: { type: 'string', description: 'default: the working directory' },
    },
    required: ['command'],
  },
  schema: input,
  brief: (i) => i.command,
  run: runBash,
});
