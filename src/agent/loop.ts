/**
 * The agent loop: ask the context manager for a request that fits, stream the response, run the
 * tools it calls, hand the results back, until the model ends its turn. Streaming through the SDK
 * (its retries for 429/5xx/overloaded; a 400 is not retried). A request refused for its size gets
 * one reactive compaction and a retry; everything else that ends the run is an outcome with a code
 * and a message, never an exception (bugs excepted).
 */
import type Anthropic from '@anthropic-ai/sdk';
import type { Message, MessageParam, ToolResultBlockParam } from '@anthropic-ai/sdk/resources/messages';
import { classifyModelError } from '../llm/errors.js';
import { NOTES_TOOL, NOTES_TOOL_NAME, usageInputTokens, type ContextManager, type HealthReport, type PreparedRequest } from './context/index.js';
import type { AgentLog } from './log.js';
import type { ToolContext, ToolSet } from './tools/index.js';

export type LoopCode = 'done' | 'context_full' | 'overflow' | 'model_error' | 'max_turns' | 'max_tokens' | 'refusal' | 'killed';

export interface LoopOutcome {
  ok: boolean;
  code: LoopCode | string;
  message: string;
  /** The final answer (the last assistant text). */
  summary: string;
  turns: number;
  usage: { input: number; output: number };
}

export interface LoopOptions {
  client: Anthropic;
  model: string;
  ctx: ContextManager;
  tools: ToolSet;
  toolCtx: ToolContext;
  system: string;
  log: AgentLog;
  /** Every message given to the manager, as it holds it (the transcript). */
  record: (m: MessageParam) => void;
  maxTurns: number;
  /** Turn boundary: true when a compaction was asked for (the request is consumed). */
  takeCompactRequest: () => Promise<boolean>;
  /** After each turn, with the context's health. */
  onTurn?: (h: HealthReport) => Promise<void>;
  /** Each request as it is sent (tests hold them to the window). */
  onRequest?: (r: PreparedRequest) => void;
  /** Checked at each turn boundary: true once the run is being stopped (a signal). */
  stopped?: () => boolean;
}

/** Cut-off responses in a row before the run gives up. */
const MAX_CUTOFFS = 3;

const textOf = (m: Message): string =>
  m.content
    .map((b) => (b.type === 'text' ? b.text : ''))
    .join('')
    .trim();

export async function runLoop(o: LoopOptions): Promise<LoopOutcome> {
  const { ctx, log } = o;
  const tools = [...o.tools.definitions, NOTES_TOOL];
  const usage = { input: 0, output: 0 };
  let turns = 0;
  let summary = '';
  let cutoffs = 0;
  const end = (ok: boolean, code: string, message: string): LoopOutcome => ({ ok, code, message, summary, turns, usage });
  /** The message the manager just stored, for the transcript (its own object, before any tier changes it). */
  const recordLast = () => {
    const last = ctx.messages[ctx.messages.length - 1];
    if (last) o.record(structuredClone(last));
  };

  for (;;) {
    if (o.stopped?.()) return end(false, 'killed', 'stopped by a signal');
    if (turns >= o.maxTurns) return end(false, 'max_turns', `stopped after ${turns} model turns, the turn limit (--max-turns)`);
    if (await o.takeCompactRequest()) {
      ctx.requestCompaction();
      log.line('◆', 'context: compaction requested (nightshift compact): compacting before this turn');
    }
    const prepared = await ctx.prepareRequest({ system: o.system, tools });
    if (!prepared.ok) return end(false, prepared.error.code, prepared.error.message);
    const req = prepared.value;
    o.onRequest?.(req);
    let msg: Message;
    try {
      msg = await o.client.messages
        .stream({
          model: o.model,
          max_tokens: req.maxTokens,
          messages: req.messages,
          ...(req.system !== undefined ? { system: req.system } : {}),
          ...(req.tools ? { tools: req.tools } : {}),
        })
        .finalMessage();
    } catch (err) {
      const d = await ctx.onOverflow(err);
      if (d.action === 'retry') continue;
      if (d.action === 'give_up') return end(false, 'overflow', `${d.error.message}${d.checkpoint.mdPath ? ` (checkpoint: ${d.checkpoint.mdPath})` : ''}`);
      const e = classifyModelError(err);
      return end(false, 'model_error', `the model request failed (${e.code}): ${e.message}`);
    }
    turns++;
    usage.input += usageInputTokens(msg.usage);
    usage.output += msg.usage.output_tokens;
    if (msg.stop_reason === 'model_context_window_exceeded') {
      // The cut-off response is not kept: compact and ask again.
      const d = await ctx.onOverflow(msg);
      if (d.action === 'retry') continue;
      return end(false, 'overflow', d.action === 'give_up' ? d.error.message : 'the response stopped at the context window');
    }
    const text = textOf(msg);
    if (text) {
      summary = text;
      log.assistant(text);
    }
    const uses = msg.content.flatMap((b) => (b.type === 'tool_use' ? [b] : []));
    if (msg.content.length === 0) {
      if (msg.stop_reason === 'max_tokens') return end(false, 'max_tokens', 'the response was empty and cut off at max_tokens');
      return end(true, 'done', 'the model ended its turn (with an empty response)');
    }
    ctx.addAssistant(msg.content, msg.usage);
    recordLast();

    if (msg.stop_reason === 'refusal') return end(false, 'refusal', 'the model declined to continue (stop_reason refusal)');
    if (msg.stop_reason === 'max_tokens') {
      if (++cutoffs > MAX_CUTOFFS)
        return end(false, 'max_tokens', `${cutoffs} responses in a row were cut off at max_tokens (${req.maxTokens}); raise --max-output-tokens`);
      log.line('◆', `response cut off at max_tokens (${req.maxTokens})`);
      if (uses.length > 0) {
        const cut = `[Your response hit the max_tokens limit (${req.maxTokens}) before this call was complete, so it was not run. Make it again, smaller: write big files in parts.]`;
        await ctx.addToolResults(uses.map((u) => ({ type: 'tool_result' as const, tool_use_id: u.id, content: cut, is_error: true })));
        recordLast();
      } else {
        ctx.addUser('[Your response was cut off at the max_tokens limit. Continue exactly where it stopped, without repeating.]');
        recordLast();
      }
      continue;
    }
    cutoffs = 0;
    if (msg.stop_reason === 'pause_turn') continue; // the server paused a long turn: send it back as it is
    if (uses.length === 0) {
      await o.onTurn?.(ctx.health());
      return end(true, 'done', 'the model ended its turn');
    }
    const results: ToolResultBlockParam[] = [];
    for (const u of uses) {
      let r: { content: string; is_error?: boolean };
      if (u.name === NOTES_TOOL_NAME) r = ctx.notes.handle(u.input);
      else r = await o.tools.run(u.name, u.input, o.toolCtx);
      const brief = u.name === NOTES_TOOL_NAME ? `notes(${(u.input as { action?: string } | null)?.action ?? '?'})` : o.tools.brief(u.name, u.input);
      log.tool(brief, { bytes: Buffer.byteLength(r.content), isError: r.is_error === true, note: lastLine(r.content) });
      results.push({ type: 'tool_result', tool_use_id: u.id, content: r.content || '(empty)', ...(r.is_error ? { is_error: true } : {}) });
    }
    await ctx.addToolResults(results);
    recordLast();
    await o.onTurn?.(ctx.health());
  }
}

/** The last line of a result: where bash puts the exit status, and the whole of a one-line failure. */
function lastLine(s: string): string {
  const l = s.trim().split('\n').pop() ?? '';
  return l.length > 160 ? `${l.slice(0, 159)}…` : l;
}
