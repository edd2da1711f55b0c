/** How the task tools put a task and its output into words, for a model to read. */
import stripAnsi from 'strip-ansi';
import type { Task } from '../../api/tasks.js';
import type { Caller } from '../caller.js';
import { humanSize, statusText } from '../format.js';

/** Terminal output as text: colours and cursor codes out, lone CRs as line breaks. */
export function plainText(data: Buffer | string): string {
  return stripAnsi(typeof data === 'string' ? data : data.toString('utf8')).replace(/\r(?!\n)/g, '\n');
}

/** The tool names an adapter offers, for the hints one answer gives about the next call. */
export interface ToolNames {
  run?: string;
  output?: string;
  input?: string;
  wait?: string;
  kill?: string;
  list?: string;
  pause?: string;
  resume?: string;
  restart?: string;
}

export function attentionLine(t: Task, names: ToolNames): string | undefined {
  if (t.state !== 'running' || !t.attention) return undefined;
  return t.attention.kind === 'prompt'
    ? `[attention: task ${t.id} seems to wait for input since ${t.attention.since}; answer with ${names.input} or stop it with ${names.kill}]`
    : `[attention: task ${t.id} has printed nothing since ${t.attention.since}]`;
}

/** One page of output, then where it stands: all of it, more to read, or nothing new yet. */
export function outputPage(t: Task, page: { data: string; offset: number; nextOffset: number; size: number; done: boolean }, names: ToolNames): string {
  const text = plainText(page.data);
  const lines = [text ? text.replace(/\n$/, '') : page.size === 0 ? '(no output yet)' : '(no output in this range)'];
  const where = `[task ${t.id}: ${statusText(t)}; bytes ${page.offset}–${page.nextOffset} of ${page.size}`;
  if (page.done) lines.push(`${where}; that is all of it]`);
  else if (page.nextOffset < page.size)
    lines.push(`${where}; ${page.size - page.nextOffset} more bytes: call ${names.output} with offset ${page.nextOffset} for more]`);
  else lines.push(`${where}; no more output yet: call ${names.output} with offset ${page.nextOffset} later]`);
  const att = attentionLine(t, names);
  if (att) lines.push(att);
  return lines.join('\n');
}

/** A task's output for a model: whole when it is at most `max` bytes, else its last `tail` bytes and how to read the rest. */
export async function outputForModel(
  call: Caller,
  id: string,
  outputTool: string | undefined,
  max: number,
  tail: number,
): Promise<{ text: string; size: number; note?: string }> {
  const first = await call((c) => c.output(id, { offset: 0, limit: max, text: true }), true);
  const size = first.meta.size;
  if (size <= max) return { text: plainText(first.data), size };
  const from = Math.max(0, size - tail);
  const last = await call((c) => c.output(id, { offset: from, limit: tail, text: true }), true);
  return {
    text: plainText(last.data),
    size,
    note: `[output is ${humanSize(size)}: only its last ${humanSize(size - from)} are shown. Read the rest with ${outputTool} {"task_id": "${id}", "offset": 0}]`,
  };
}
