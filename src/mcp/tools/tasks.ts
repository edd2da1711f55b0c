import { homedir } from 'node:os';
import { resolve } from 'node:path';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { Attention, SIGNALS, SignalSchema, TaskId, isFinished, shellExitCode, type Task } from '../../api/tasks.js';
import { commandLine, humanBytes, statusLabel } from '../../cli/format.js';
import { AppError } from '../../errors.js';
import { utf8Complete } from '../../tasks/output.js';
import { guarded, ok, type WithClient } from '../result.js';

export const DEFAULT_OUTPUT_LIMIT = 64 * 1024;
export const MAX_OUTPUT_LIMIT = 1024 * 1024;
/** list_tasks shows at most this many (the most recent). */
const MAX_LISTED = 100;

export interface TaskToolOptions {
  /** Where relative and missing `cwd`s resolve: the MCP server's working directory. */
  cwd: string;
  /** The environment a task gets: the MCP server's own. */
  env: () => Record<string, string>;
}

const TaskSummary = z.object({
  task_id: z.string(),
  name: z.string().nullable(),
  status: z.string(),
  command: z.array(z.string()),
  cwd: z.string(),
  pid: z.number().optional(),
  exit_code: z.number().optional(),
  signal: z.string().optional(),
  error: z.string().optional(),
  reason: z.string().optional(),
  attention: Attention.optional(),
  output_bytes: z.number(),
  created_at: z.string(),
  started_at: z.string().optional(),
  ended_at: z.string().optional(),
});
type TaskSummary = z.infer<typeof TaskSummary>;

export function summary(t: Task): TaskSummary {
  const s: TaskSummary = {
    task_id: t.id,
    name: t.name,
    status: t.status,
    command: t.command,
    cwd: t.cwd,
    output_bytes: t.outputBytes,
    created_at: t.createdAt,
  };
  if ('pid' in t && t.pid !== undefined) s.pid = t.pid;
  const code = shellExitCode(t);
  if (code !== null) s.exit_code = code;
  if ('signal' in t) s.signal = t.signal;
  if ('error' in t) s.error = t.error;
  if ('reason' in t && t.reason) s.reason = t.reason;
  if (t.status === 'running' && t.attention) s.attention = t.attention;
  if ('startedAt' in t && t.startedAt) s.started_at = t.startedAt;
  if ('endedAt' in t) s.ended_at = t.endedAt;
  return s;
}

function attentionLine(t: Task): string | undefined {
  if (t.status !== 'running' || !t.attention) return undefined;
  return t.attention.kind === 'prompt'
    ? `[attention: task ${t.id} seems to wait for input since ${t.attention.since}; answer with send_input or stop it with kill_task]`
    : `[attention: task ${t.id} has printed nothing since ${t.attention.since}]`;
}

function expandHome(p: string): string {
  return p === '~' ? homedir() : p.startsWith('~/') ? resolve(homedir(), p.slice(2)) : p;
}

export function registerTaskTools(server: McpServer, api: WithClient, opts: TaskToolOptions): void {
  server.registerTool(
    'run_task',
    {
      title: 'Run a background task',
      description:
        'Start a shell command as a nightshift background task and return its id at once. The output goes to a file ' +
        'on disk; read it with task_output (by byte offset). A single command string with shell syntax (spaces, pipes, ' +
        '&&, redirections) runs under sh -c; an array runs as argv without a shell. The task keeps running after this ' +
        'session ends. It gets this server\'s environment. stdin is closed (/dev/null) unless stdin is true, which keeps ' +
        'it open so send_input can answer prompts.',
      inputSchema: {
        command: z
          .union([z.string().min(1, 'command is empty'), z.array(z.string()).min(1, 'command is empty')], {
            errorMap: (issue, ctx) => ({
              message: issue.code === 'invalid_union' ? 'command must be a command line (a string) or an argv array of strings' : ctx.defaultError,
            }),
          })
          .describe('a shell command line ("npm test 2>&1 | tail") or an argv array (["make", "-j4"])'),
        cwd: z.string().min(1).optional().describe(`working directory (default: ${opts.cwd}); relative paths resolve against it`),
        name: z.string().min(1).max(200).optional().describe('a label for the task'),
        stall_after_seconds: z
          .number()
          .min(1)
          .max(7 * 24 * 3600)
          .optional()
          .describe('seconds without output before nightshift checks whether the task waits at a prompt (default 45)'),
        stdin: z.boolean().optional().describe('true: keep stdin open so send_input can write to it (default false)'),
      },
      outputSchema: TaskSummary.shape,
    },
    guarded(async (a) => {
      const command = typeof a.command === 'string' ? [a.command] : a.command;
      const cwd = a.cwd ? resolve(opts.cwd, expandHome(a.cwd)) : opts.cwd;
      const task = await api((c) =>
        c.run({
          command,
          cwd,
          env: opts.env(),
          stdin: a.stdin ?? false,
          ...(a.name ? { name: a.name } : {}),
          ...(a.stall_after_seconds !== undefined ? { stallAfterSeconds: a.stall_after_seconds } : {}),
        }),
      );
      if (task.status === 'failed_to_start') throw new AppError('spawn_failed', `task ${task.id} failed to start: ${task.error}`);
      const text =
        `started task ${task.id} (${task.status}): ${commandLine(task.command)}\n` +
        `cwd: ${task.cwd}\n` +
        `read its output with task_output {"task_id": "${task.id}"}`;
      return ok(summary(task), text);
    }),
  );

  server.registerTool(
    'task_output',
    {
      title: 'Read task output',
      description:
        `Read a task's output (stdout and stderr together) from a byte offset, at most \`limit\` bytes ` +
        `(default ${DEFAULT_OUTPUT_LIMIT}, max ${MAX_OUTPUT_LIMIT}), plus its status. When next_offset < size there is ` +
        'more: call again with offset = next_offset. done is true once the task has ended and everything was read. ' +
        'tail_lines reads the last N lines instead of from an offset.',
      inputSchema: {
        task_id: TaskId.describe('the task id from run_task or list_tasks'),
        offset: z.number().int().min(0).optional().describe('byte offset to start at (default 0)'),
        limit: z.number().int().min(16).max(MAX_OUTPUT_LIMIT).optional().describe(`bytes to read at most (default ${DEFAULT_OUTPUT_LIMIT})`),
        tail_lines: z.number().int().min(1).max(100_000).optional().describe('read the last N lines instead (not with offset)'),
      },
      outputSchema: {
        task_id: z.string(),
        data: z.string(),
        offset: z.number(),
        next_offset: z.number(),
        size: z.number(),
        status: z.string(),
        done: z.boolean(),
        exit_code: z.number().optional(),
        signal: z.string().optional(),
        error: z.string().optional(),
        attention: Attention.optional(),
      },
    },
    guarded(async (a) => {
      if (a.offset !== undefined && a.tail_lines !== undefined) {
        throw new AppError('bad_request', 'give either offset or tail_lines, not both');
      }
      const limit = a.limit ?? DEFAULT_OUTPUT_LIMIT;
      // The status first: when it says the task has ended, the read that follows saw all of its output.
      const { task, data, meta } = await api(async (c) => {
        const t = await c.get(a.task_id);
        const q = a.tail_lines !== undefined ? { lines: a.tail_lines, limit } : { offset: a.offset ?? 0, limit };
        return { task: t, ...(await c.output(a.task_id, q)) };
      });
      const finished = isFinished(task);
      const atEnd = meta.offset + data.length >= meta.size;
      // Never split a character, except at the very end of a finished output (nothing would ever complete it).
      const bytes = finished && atEnd ? data : utf8Complete(data);
      const nextOffset = meta.offset + bytes.length;
      const done = finished && nextOffset >= meta.size;
      const s = summary(task);
      const structured = {
        task_id: task.id,
        data: bytes.toString('utf8'),
        offset: meta.offset,
        next_offset: nextOffset,
        size: meta.size,
        status: task.status,
        done,
        ...(s.exit_code !== undefined ? { exit_code: s.exit_code } : {}),
        ...(s.signal !== undefined ? { signal: s.signal } : {}),
        ...(s.error !== undefined ? { error: s.error } : {}),
        ...(s.attention ? { attention: s.attention } : {}),
      };
      const lines: string[] = [];
      if (structured.data) lines.push(structured.data.endsWith('\n') ? structured.data.slice(0, -1) : structured.data);
      else lines.push(meta.size === 0 ? '(no output yet)' : '(no output in this range)');
      lines.push(`[task ${task.id} ${statusLabel(task)}; bytes ${meta.offset}-${nextOffset} of ${meta.size}]`);
      if (nextOffset < meta.size) {
        lines.push(`[${meta.size - nextOffset} more bytes: call task_output with offset ${nextOffset} for more]`);
      } else if (!finished) {
        lines.push(`[task still running: call task_output with offset ${nextOffset} later for new output]`);
      }
      const att = attentionLine(task);
      if (att) lines.push(att);
      if (task.status === 'failed_to_start') lines.push(`[failed to start: ${task.error}]`);
      return ok(structured, lines.join('\n'));
    }),
  );

  server.registerTool(
    'send_input',
    {
      title: 'Send input to a task',
      description:
        'Write text to the stdin of a task started with stdin: true, e.g. to answer a prompt. A newline is added unless ' +
        'newline is false or the text already ends with one (an empty text then just presses Enter). eof closes stdin after.',
      inputSchema: {
        task_id: TaskId,
        text: z.string().max(1024 * 1024),
        eof: z.boolean().optional().describe('close the task\'s stdin after writing'),
        newline: z.boolean().optional().describe('append a newline (default true)'),
      },
      outputSchema: { ...TaskSummary.shape, bytes_sent: z.number() },
    },
    guarded(async (a) => {
      const eof = a.eof ?? false;
      const addNewline = (a.newline ?? true) && !a.text.endsWith('\n') && !(a.text === '' && eof);
      const payload = addNewline ? `${a.text}\n` : a.text;
      const task = await api((c) => c.input(a.task_id, payload, eof)).catch((err: unknown) => {
        if (err instanceof AppError && err.code === 'stdin_closed' && err.message.includes('--no-stdin')) {
          throw new AppError('stdin_closed', `task ${a.task_id} was started without stdin; start it with run_task {"stdin": true} to send it input`);
        }
        throw err;
      });
      const bytes = Buffer.byteLength(payload);
      return ok(
        { ...summary(task), bytes_sent: bytes },
        `sent ${bytes} bytes to task ${task.id}${eof ? ' and closed its stdin' : ''}; it is ${statusLabel(task)}`,
      );
    }),
  );

  server.registerTool(
    'kill_task',
    {
      title: 'Stop a task',
      description: `Signal a task's whole process group (default SIGTERM) and wait up to 2 s for it to end. Signals: ${SIGNALS.join(', ')} (TERM and term work too).`,
      inputSchema: { task_id: TaskId, signal: z.string().min(1).max(16).optional().describe('signal name (default SIGTERM)') },
      outputSchema: TaskSummary.shape,
    },
    guarded(async (a) => {
      const sig = SignalSchema.safeParse(a.signal ?? 'SIGTERM');
      if (!sig.success) throw new AppError('bad_request', `unknown signal "${a.signal}"; use one of ${SIGNALS.join(', ')}`);
      const task = await api(async (c) => {
        await c.kill(a.task_id, sig.data);
        return (await c.wait(a.task_id, 2)).task;
      });
      const text = isFinished(task)
        ? `task ${task.id} is ${statusLabel(task)}`
        : `sent ${sig.data} to task ${task.id}; it is still ${statusLabel(task)} (try kill_task with signal SIGKILL)`;
      return ok(summary(task), text);
    }),
  );

  server.registerTool(
    'list_tasks',
    {
      title: 'List tasks',
      description: `List nightshift tasks, newest first (at most ${MAX_LISTED}): running and queued ones, and finished ones unless all is false.`,
      inputSchema: { all: z.boolean().optional().describe('include finished tasks (default true)') },
      outputSchema: { tasks: z.array(TaskSummary), total: z.number() },
    },
    guarded(async (a) => {
      const all = await api((c) => c.list(a.all ?? true));
      const tasks = [...all].sort((x, y) => Number(y.id) - Number(x.id)).slice(0, MAX_LISTED);
      const rows = tasks.map((t) => {
        const att = t.status === 'running' && t.attention ? ` [${t.attention.kind}]` : '';
        return `${t.id}\t${statusLabel(t)}${att}\t${humanBytes(t.outputBytes)}\t${t.name ? `${t.name}: ` : ''}${commandLine(t.command).slice(0, 120)}`;
      });
      const more = all.length > tasks.length ? `\n(${all.length - tasks.length} older tasks not shown)` : '';
      const text = tasks.length === 0 ? 'no tasks' : `id\tstatus\toutput\tcommand\n${rows.join('\n')}${more}`;
      return ok({ tasks: tasks.map(summary), total: all.length }, text);
    }),
  );
}
