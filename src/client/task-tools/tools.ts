/**
 * The task tools, defined once: what each does, its input, its answer and its words. The MCP
 * server and the agent offer them through thin adapters (mcp/tools/client-tools.ts,
 * agent/tools/tasks.ts) under the names of client/tool-names.ts; the defaults and limits are the
 * same for both (TASK_TOOL_LIMITS). The schedule, workflow and memory tools share this shape.
 */
import { homedir } from 'node:os';
import { resolve } from 'node:path';
import { z } from 'zod';
import { namedTool as tool, type TaskTool } from './define.js';
import { endedAs, isFinished, SIGNALS, SignalSchema, statusOf } from '../../api/tasks.js';
import { AppError } from '../../errors.js';
import { commandLine, humanSize, readLimitWords, statusText } from '../format.js';
import { waitUpTo } from '../wait.js';
import { outputForModel, outputPage, type ToolNames } from './render.js';
import {
  InputInput,
  KillInput,
  ListInput,
  OutputAnswer,
  OutputInput,
  PauseInput,
  RestartInput,
  RunInput,
  summary,
  TASK_TOOL_LIMITS as L,
  TaskSummary,
  WaitInput,
} from './schemas.js';

export type { ToolNames } from './render.js';

export type { TaskTool, TaskToolAnswer, TaskToolHost } from './define.js';

export interface TaskToolOptions {
  names: ToolNames;
  /** A command given as one line runs as `[...shell, line]`; without it, the daemon's rule (`sh -c` when it has shell syntax). */
  shell?: readonly string[];
}

const expandHome = (p: string) => (p === '~' ? homedir() : p.startsWith('~/') ? resolve(homedir(), p.slice(2)) : p);

/** The tools named in `o.names`, in a stable order. */
export function taskTools(o: TaskToolOptions): TaskTool[] {
  const n = o.names;
  const shellNote = o.shell ? `runs under ${o.shell.join(' ')}` : 'runs under sh -c when it has shell syntax (spaces, pipes, &&, redirections)';
  return [
    ...tool(n.run, {
      title: 'Run a background task',
      description:
        `Start a command as a nightshift background task and return its id at once. The output goes to a file on disk; read it with ${n.output} ` +
        `(by byte offset)${n.wait ? `, wait for it with ${n.wait}` : ''}. A command line (a string) ${shellNote}; an argv array runs without a shell. ` +
        'The task keeps running after this session ends. stdin is closed (/dev/null) unless stdin is true, which keeps it open so ' +
        `${n.input} can answer prompts. For servers, watchers, long builds.`,
      input: RunInput,
      output: TaskSummary.shape,
      brief: (i) => (typeof i.command === 'string' ? i.command : commandLine(i.command)),
      run: async (i, host) => {
        if (i.after_any && !i.after) throw new AppError('bad_request', 'after_any needs after (the task ids to wait for)');
        const line = typeof i.command === 'string' ? i.command : commandLine(i.command);
        const command = typeof i.command !== 'string' ? i.command : o.shell ? [...o.shell, i.command] : [i.command];
        const name = host.name ? host.name(i.name, line) : i.name;
        const task = await host.call((c) =>
          c.run({
            command,
            cwd: i.cwd ? resolve(host.cwd, expandHome(i.cwd)) : host.cwd,
            env: host.env(),
            stdin: i.stdin ?? false,
            ...(name ? { name } : {}),
            ...(i.stall_after_seconds !== undefined ? { stallAfterSeconds: i.stall_after_seconds } : {}),
            ...(i.after ? { after: i.after, ...(i.after_any ? { afterAny: true } : {}) } : {}),
            ...(i.group ? { group: i.group } : {}),
            ...(i.timeout_seconds !== undefined ? { timeoutSeconds: i.timeout_seconds } : {}),
          }),
        );
        const failed = endedAs(task, 'failed_to_start');
        if (failed) throw new AppError('spawn_failed', `task ${task.id} failed to start: ${failed.error}`);
        const text = `${task.state === 'queued' ? 'queued' : 'started'} background task ${task.id} (${statusText(task)}): ${line}\ncwd: ${task.cwd}\nread its output with ${n.output} {"task_id": "${task.id}", "offset": 0}`;
        return { text, structured: summary(task) };
      },
    }),

    ...tool(n.output, {
      title: 'Read task output',
      description:
        `Read a task's output (stdout and stderr together) from a byte offset, ${readLimitWords('limit', L.outputDefault, L.outputMax)}, in whole characters, ` +
        'plus its status. When next_offset < size there is more: call again with offset = next_offset. done is true once the task has ended ' +
        'and everything was read. tail_lines reads the last N lines instead of from an offset.',
      input: OutputInput,
      output: OutputAnswer,
      brief: (i) => `${i.task_id}, ${i.tail_lines !== undefined ? `last ${i.tail_lines} lines` : `offset ${i.offset ?? 0}`}`,
      run: async (i, host) => {
        if (i.offset !== undefined && i.tail_lines !== undefined) throw new AppError('bad_request', 'give either offset or tail_lines, not both');
        const limit = i.limit ?? L.outputDefault;
        // The status first: when it says the task has ended, the read that follows saw all of its output.
        const { task, data, meta } = await host.call(async (c) => {
          const t = await c.get(i.task_id);
          const q = i.tail_lines !== undefined ? { lines: i.tail_lines, limit, text: true } : { offset: i.offset ?? 0, limit, text: true };
          return { task: t, ...(await c.output(i.task_id, q)) };
        }, true);
        const page = { data: data.toString('utf8'), offset: meta.offset, nextOffset: meta.nextOffset, size: meta.size, done: meta.done };
        const s = summary(task);
        const structured = {
          task_id: task.id,
          data: page.data,
          offset: meta.offset,
          next_offset: meta.nextOffset,
          size: meta.size,
          status: statusOf(task),
          done: meta.done,
          ...(s.exit_code !== undefined ? { exit_code: s.exit_code } : {}),
          ...(s.signal !== undefined ? { signal: s.signal } : {}),
          ...(s.error !== undefined ? { error: s.error } : {}),
          ...(s.attention ? { attention: s.attention } : {}),
        };
        return { text: outputPage(task, page, n), structured };
      },
    }),

    ...tool(n.input, {
      title: 'Send input to a task',
      description:
        `Write text to the stdin of a task started with stdin: true, e.g. to answer a prompt. A newline is added unless newline is false or the ` +
        'text already ends with one (an empty text then just presses Enter). eof closes stdin after.',
      input: InputInput,
      output: { ...TaskSummary.shape, bytes_sent: z.number() },
      brief: (i) => `${i.task_id}, ${JSON.stringify(i.text)}`,
      run: async (i, host) => {
        const eof = i.eof ?? false;
        const addNewline = (i.newline ?? true) && !i.text.endsWith('\n') && !(i.text === '' && eof);
        const payload = addNewline ? `${i.text}\n` : i.text;
        const task = await host
          .call((c) => c.input(i.task_id, payload, eof))
          .catch((err: unknown) => {
            if (err instanceof AppError && err.code === 'stdin_closed' && err.message.includes('--no-stdin')) {
              throw new AppError('stdin_closed', `task ${i.task_id} was started without stdin; start it with ${n.run} {"stdin": true} to send it input`);
            }
            throw err;
          });
        const bytes = Buffer.byteLength(payload);
        return {
          text: `sent ${bytes} bytes to task ${task.id}${eof ? ' and closed its stdin' : ''}; it is ${statusText(task)}`,
          structured: { ...summary(task), bytes_sent: bytes },
        };
      },
    }),

    ...tool(n.wait, {
      title: 'Wait for a task',
      description: `Wait up to timeout_seconds (default ${L.waitDefaultSeconds}, max ${L.waitMaxSeconds}) for a task to end; its status and the end of its output.`,
      input: WaitInput,
      output: TaskSummary.shape,
      brief: (i) => `${i.task_id}, ${i.timeout_seconds ?? L.waitDefaultSeconds}s`,
      run: async (i, host) => {
        const seconds = i.timeout_seconds ?? L.waitDefaultSeconds;
        const t = await waitUpTo(host.call, i.task_id, seconds);
        const out = await outputForModel(host.call, t.id, n.output, L.waitTailBytes, L.waitTailBytes);
        const head = isFinished(t) ? `task ${t.id} ended: ${statusText(t)}` : `task ${t.id} is still ${statusText(t)} after ${seconds}s`;
        const shown = out.note
          ? `last ${humanSize(Math.min(out.size, L.waitTailBytes))} of ${humanSize(out.size)} of output`
          : `output (${humanSize(out.size)})`;
        const more = out.note ? `\n[read all of it with ${n.output} {"task_id": "${t.id}", "offset": 0}]` : '';
        return { text: `${head}; ${shown}:\n${out.text || '(none)'}${more}`, structured: summary(t) };
      },
    }),

    ...tool(n.kill, {
      title: 'Stop a task',
      description: `Signal a task's whole process group (default SIGTERM) and wait up to ${L.killWaitSeconds} s for it to end. Signals: ${SIGNALS.join(', ')} (TERM and term work too).`,
      input: KillInput,
      output: TaskSummary.shape,
      brief: (i) => `${i.task_id}${i.signal === undefined || i.signal === 'SIGTERM' ? '' : `, ${i.signal}`}`,
      run: async (i, host) => {
        const sig = SignalSchema.safeParse(i.signal ?? 'SIGTERM');
        if (!sig.success) throw new AppError('bad_request', `unknown signal "${i.signal}"; use one of ${SIGNALS.join(', ')}`);
        await host.call((c) => c.kill(i.task_id, sig.data), true);
        const t = await waitUpTo(host.call, i.task_id, L.killWaitSeconds);
        const text = isFinished(t)
          ? `task ${t.id} ended: ${statusText(t)}`
          : `sent ${sig.data} to task ${t.id}; it is still ${statusText(t)} after ${L.killWaitSeconds} s (try ${n.kill} with signal SIGKILL)`;
        return { text, structured: summary(t) };
      },
    }),

    ...[
      [n.pause, false],
      [n.resume, true],
    ].flatMap(([name, resume]) =>
      tool(name as string | undefined, {
        title: resume ? 'Resume a paused task' : 'Pause a task',
        description: resume
          ? 'Continue a paused task (SIGCONT to its whole process group).'
          : `Stop a running task (SIGSTOP to its whole process group) until it is resumed${n.resume ? ` with ${n.resume}` : ''}: it keeps its state and uses no CPU meanwhile.`,
        input: PauseInput,
        output: TaskSummary.shape,
        brief: (i) => i.task_id,
        run: async (i, host) => {
          const t = await host.call((c) => (resume ? c.resume(i.task_id) : c.pause(i.task_id)), true);
          return { text: `task ${t.id} is ${statusText(t)}`, structured: summary(t) };
        },
      }),
    ),

    ...tool(n.restart, {
      title: 'Restart a finished task',
      description:
        'Start a finished task again as a new task: same command, cwd, name, stdin, group, timeout and labels, in the environment a new task gets; ' +
        'returns the new task (restart_of names the old one).',
      input: RestartInput,
      output: TaskSummary.shape,
      brief: (i) => i.task_id,
      run: async (i, host) => {
        const t = await host.call((c) => c.restart(i.task_id, host.env()));
        return { text: `started task ${t.id} (${statusText(t)}) as a new run of task ${i.task_id}`, structured: summary(t) };
      },
    }),

    ...tool(n.list, {
      title: 'List tasks',
      description: `List nightshift tasks, newest first (at most ${L.listMax}): running and queued ones, and finished ones unless all is false.`,
      input: ListInput,
      output: { tasks: z.array(TaskSummary), total: z.number() },
      brief: (i) => (i.all === false ? 'running' : 'all'),
      run: async (i, host) => {
        const all = await host.call((c) => c.list(i.all ?? true), true);
        const tasks = [...all].sort((x, y) => Number(y.id) - Number(x.id)).slice(0, L.listMax);
        const rows = tasks.map(
          (t) => `${t.id}\t${statusText(t)}\t${humanSize(t.outputBytes)}\t${t.name ? `${t.name}: ` : ''}${commandLine(t.command).slice(0, 120)}`,
        );
        const more = all.length > tasks.length ? `\n(${all.length - tasks.length} older tasks not shown)` : '';
        const text = tasks.length === 0 ? 'no tasks' : `id\tstatus\toutput\tcommand\n${rows.join('\n')}${more}`;
        return { text, structured: { tasks: tasks.map(summary), total: all.length } };
      },
    }),
  ];
}
