/**
 * delegate: a focused sub-agent with a clean context. It is an agent task like any other (`ps`,
 * `tail -f`, `kill`), started by the daemon with this task as its parent; the parent waits for it
 * and gets back only its final summary, at most 2,000 tokens, so the sub-agent's reading and
 * searching never enters the parent's context.
 */
import { z } from 'zod';
import { charsForTokens } from '../../llm/tokens.js';
import { endedAs } from '../../api/task-status.js';
import { statusText } from '../../client/format.js';
import { daemonCall, retrying } from '../../client/retrying.js';
import { waitUpTo } from '../../client/wait.js';
import { defineTool, failure } from './types.js';

export const DELEGATE_SUMMARY_TOKENS = 2000;
/** A sub-agent runs as long as it needs; the wait is re-armed in steps of this. */
const WAIT_STEP_S = 300;

export function clipSummary(text: string, tokens = DELEGATE_SUMMARY_TOKENS): string {
  const max = charsForTokens(tokens);
  if (text.length <= max) return text;
  const note = `\n[summary cut to ${tokens} tokens]`;
  return `${text.slice(0, max - note.length)}${note}`;
}

export const delegateTool = defineTool({
  name: 'delegate',
  description:
    'Hand a self-contained sub-task (investigate X, find where Y is done, fix Z and run its tests) to a sub-agent with a clean context. ' +
    'It has the same tools, works in its own context, and returns only its final summary (at most 2,000 tokens). ' +
    'State the goal, what to look at and what to report. It blocks until the sub-agent ends.',
  inputSchema: { type: 'object', properties: { task: { type: 'string' }, cwd: { type: 'string' } }, required: ['task'] },
  schema: z.object({ task: z.string().trim().min(1, 'task is empty').max(100_000), cwd: z.string().min(1).optional() }),
  brief: (i) => i.task,
  run: async (i, ctx) => {
    const child = await daemonCall(
      () =>
        ctx.client.agent({
          prompt: i.task,
          cwd: i.cwd ? (i.cwd.startsWith('/') ? i.cwd : `${ctx.cwd}/${i.cwd}`) : ctx.cwd,
          parent: ctx.taskId,
          model: ctx.model.name,
          contextWindow: ctx.model.contextWindow,
          maxOutputTokens: ctx.model.maxOutputTokens,
          env: ctx.env,
          name: `agent ${ctx.taskId} delegate: ${i.task.replace(/\s+/g, ' ').slice(0, 80)}`,
        }),
      false,
    );
    const failed = endedAs(child, 'failed_to_start');
    if (failed) return failure(`the sub-agent could not start: ${failed.error}`);
    ctx.foreground.add(child.id);
    try {
      let state = child.state;
      while (state !== 'finished') state = (await waitUpTo(retrying(ctx.client), child.id, WAIT_STEP_S)).state;
    } finally {
      ctx.foreground.delete(child.id);
    }
    const done = await daemonCall(() => ctx.client.get(child.id), true);
    const result = done.agent?.result;
    if (!result) return failure(`sub-agent task ${child.id} ended (${statusText(done)}) without a result; its log: nightshift output ${child.id}`);
    const head = `[sub-agent task ${child.id}: ${result.ok ? 'done' : `stopped: ${result.code}`} after ${result.turns} turn${result.turns === 1 ? '' : 's'}]`;
    const body = result.summary.trim() || result.message;
    return { content: `${head}\n${clipSummary(body)}`, ...(result.ok ? {} : { is_error: true }) };
  },
});
