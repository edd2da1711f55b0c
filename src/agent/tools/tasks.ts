/**
 * Background tasks through the daemon: start one, read its output by byte offset, send it input,
 * wait for it, kill it. The same tasks `nightshift ps` lists.
 */
import { z } from 'zod';
import { isFinished } from '../../api/tasks.js';
import { daemonCall, humanSize, plainText, statusText, waitUpTo } from './daemon.js';
import { outputForModel, startCommand } from './shell.js';
import { defineTool, failure } from './types.js';

const id = z.union([z.string().regex(/^[1-9][0-9]{0,11}$/, 'task ids are positive integers'), z.number().int().positive().transform(String)]);
const OUTPUT_DEFAULT = 16 * 1024;
const OUTPUT_MAX = 256 * 1024;
const WAIT_DEFAULT_S = 60;
const WAIT_MAX_S = 600;
const TAIL_ON_WAIT = 4 * 1024;

const taskIdProp = { task_id: { type: 'string', description: 'task id' } };

export const taskRunTool = defineTool({
  name: 'task_run',
  description:
    'Start a long-running command (server, watcher, long build) as a background task and return its id at once. ' +
    'Read its output with task_output, answer prompts with task_input, stop it with task_kill.',
  inputSchema: {
    type: 'object',
    properties: { command: { type: 'string' }, cwd: { type: 'string' }, stdin: { type: 'boolean', description: 'keep stdin open for task_input (default true)' } },
    required: ['command'],
  },
  schema: z.object({ command: z.string().min(1, 'command is empty'), cwd: z.string().min(1).optional(), stdin: z.boolean().default(true) }),
  brief: (i) => i.command,
  run: async (i, ctx) => {
    const t = await startCommand(ctx, i.command, { ...(i.cwd ? { cwd: i.cwd } : {}), stdin: i.stdin, label: `agent ${ctx.taskId} task: ` });
    if (t.status === 'failed_to_start') return failure(`the command could not start: ${t.error}`);
    return { content: `started background task ${t.id} (${statusText(t)}). Read its output with task_output {"task_id": "${t.id}", "offset": 0}.` };
  },
});

export const taskOutputTool = defineTool({
  name: 'task_output',
  description: `Read a task's output from a byte offset (default 0), at most limit bytes (default ${OUTPUT_DEFAULT}, max ${OUTPUT_MAX}). The answer says the next offset and whether the task has ended.`,
  inputSchema: {
    type: 'object',
    properties: { ...taskIdProp, offset: { type: 'integer', minimum: 0 }, limit: { type: 'integer', minimum: 1 } },
    required: ['task_id'],
  },
  schema: z.object({ task_id: id, offset: z.number().int().min(0).default(0), limit: z.number().int().min(1).max(OUTPUT_MAX).default(OUTPUT_DEFAULT) }),
  brief: (i) => `${i.task_id}, offset ${i.offset}`,
  run: async (i, ctx) => {
    const { data, meta } = await daemonCall(() => ctx.client.output(i.task_id, { offset: i.offset, limit: i.limit }), true);
    const task = await daemonCall(() => ctx.client.get(i.task_id), true);
    const more = meta.nextOffset < meta.size;
    const where = `bytes ${meta.offset}–${meta.nextOffset} of ${meta.size}`;
    const tail = meta.done
      ? `[task ${i.task_id}: ${statusText(task)}; ${where}; that is all of it]`
      : more
        ? `[task ${i.task_id}: ${statusText(task)}; ${where}; more: task_output with offset ${meta.nextOffset}]`
        : `[task ${i.task_id}: ${statusText(task)}; ${where}; no more output yet: read again from offset ${meta.nextOffset} later]`;
    const text = plainText(data);
    return { content: `${text}${text && !text.endsWith('\n') ? '\n' : ''}${tail}` };
  },
});

export const taskInputTool = defineTool({
  name: 'task_input',
  description: "Write text to a running background task's stdin (a newline is added unless newline is false); eof closes its stdin.",
  inputSchema: {
    type: 'object',
    properties: { ...taskIdProp, text: { type: 'string' }, newline: { type: 'boolean' }, eof: { type: 'boolean' } },
    required: ['task_id', 'text'],
  },
  schema: z.object({ task_id: id, text: z.string(), newline: z.boolean().default(true), eof: z.boolean().default(false) }),
  brief: (i) => `${i.task_id}, ${JSON.stringify(i.text)}`,
  run: async (i, ctx) => {
    const payload = i.newline ? `${i.text}\n` : i.text;
    const t = await daemonCall(() => ctx.client.input(i.task_id, payload, i.eof), false);
    return { content: `sent ${Buffer.byteLength(payload)} bytes to task ${t.id}${i.eof ? ' and closed its stdin' : ''} (${statusText(t)})` };
  },
});

export const taskWaitTool = defineTool({
  name: 'task_wait',
  description: `Wait up to timeout_seconds (default ${WAIT_DEFAULT_S}, max ${WAIT_MAX_S}) for a task to end; returns its status and the end of its output.`,
  inputSchema: { type: 'object', properties: { ...taskIdProp, timeout_seconds: { type: 'number' } }, required: ['task_id'] },
  schema: z.object({ task_id: id, timeout_seconds: z.number().min(0).max(WAIT_MAX_S).default(WAIT_DEFAULT_S) }),
  brief: (i) => `${i.task_id}, ${i.timeout_seconds}s`,
  run: async (i, ctx) => {
    const t = await waitUpTo(ctx.client, i.task_id, i.timeout_seconds);
    const out = await outputForModel(ctx.client, t.id, TAIL_ON_WAIT, TAIL_ON_WAIT);
    const head = isFinished(t) ? `task ${t.id} ended: ${statusText(t)}` : `task ${t.id} is still ${statusText(t)} after ${i.timeout_seconds}s`;
    const shown = out.note ? `last ${humanSize(Math.min(out.size, TAIL_ON_WAIT))} of ${humanSize(out.size)} of output` : `output (${humanSize(out.size)})`;
    return { content: `${head}; ${shown}:\n${out.text || '(none)'}${out.note ? `\n[read all of it with task_output {"task_id": "${t.id}", "offset": 0}]` : ''}` };
  },
});

export const taskKillTool = defineTool({
  name: 'task_kill',
  description: "Signal a task's whole process group (default SIGTERM) and wait up to 5 s for it to end.",
  inputSchema: { type: 'object', properties: { ...taskIdProp, signal: { type: 'string', description: 'TERM, KILL, INT, …' } }, required: ['task_id'] },
  schema: z.object({ task_id: id, signal: z.string().min(1).default('SIGTERM') }),
  brief: (i) => `${i.task_id}${i.signal === 'SIGTERM' ? '' : `, ${i.signal}`}`,
  run: async (i, ctx) => {
    await daemonCall(() => ctx.client.kill(i.task_id, i.signal), true);
    const t = await waitUpTo(ctx.client, i.task_id, 5);
    return { content: isFinished(t) ? `task ${t.id} ended: ${statusText(t)}` : `task ${t.id} was signalled but is still ${statusText(t)}; try signal KILL` };
  },
});

export const TASK_TOOLS = [taskRunTool, taskOutputTool, taskInputTool, taskWaitTool, taskKillTool];
