/**
 * One compaction of a history: cut, summarise the older part (memories extracted from it in
 * parallel), replace it with a message holding the task verbatim, the summary and the notes, then
 * the newest turns unchanged. The manager decides when, counts failures and saves the checkpoint.
 */
import type { MessageParam } from '@anthropic-ai/sdk/resources/messages';
import { classifyModelError } from '../../llm/errors.js';
import { estimateTokens } from '../../llm/tokens.js';
import { currentTurnStart } from './blocks.js';
import { ACK_TEXT, buildSummarizeRequest, findCut, parseSummary, summaryMessageText, type StructuredSummary } from './compaction-summary.js';
import type { CompactionConfig } from './config.js';
import type { Entry, History } from './history.js';
import { fail, ok, type Result, type Summarizer, type UsageLike } from './types.js';

export interface CompactionInput {
  history: History;
  cfg: CompactionConfig;
  inputBudget: number;
  contextWindow: number;
  maxOutputTokens: number;
  /** Model tokens per chars/4 token: the summary request is sized with it. */
  ratio: number;
  summarize: Summarizer;
  extractMemories?: (messages: MessageParam[]) => void | Promise<void>;
  /** Extractions still running (the manager's settle() waits for them). */
  inflight: Set<Promise<void>>;
  onExtractError: (message: string) => void;
  task: string | undefined;
  notes: string;
  /** Ordinal of this compaction (1 = first). */
  ordinal: number;
}

export interface CompactionDone {
  summary: StructuredSummary;
  keptMessages: number;
  summaryTokens: number;
  /** The summary call's usage, when the loop returned it. */
  usage?: UsageLike;
}

export async function runCompaction(c: CompactionInput): Promise<Result<CompactionDone>> {
  const msgs = c.history.messages();
  const entries = c.history.all();
  const cut = findCut(msgs, Math.floor(c.cfg.keepFraction * c.inputBudget), currentTurnStart(msgs));
  if (cut === undefined || !entries.slice(0, cut).some((e) => e.seq !== undefined)) {
    return fail('nothing_to_compact', 'nothing older than the current turn is left to summarise');
  }
  const head = msgs.slice(0, cut);
  const maxTokens = Math.min(c.cfg.summaryMaxTokens, c.maxOutputTokens);
  const request = buildSummarizeRequest(head, {
    // Unanchored chars/4, so a margin and the observed ratio.
    maxInputTokens: Math.floor(((c.contextWindow - maxTokens) * 0.9) / Math.max(1, c.ratio)),
    toolResultChars: c.cfg.toolResultChars,
    maxTokens,
  });
  const extract = c.extractMemories;
  if (extract) {
    const copy = structuredClone(head);
    const p: Promise<void> = Promise.resolve()
      .then(() => extract(copy))
      .catch((err: unknown) => c.onExtractError(err instanceof Error ? err.message : String(err)))
      .finally(() => c.inflight.delete(p));
    c.inflight.add(p);
  }
  let answer: { text: string; usage?: UsageLike };
  try {
    answer = await c.summarize(request);
  } catch (err) {
    return fail('compaction_failed', `the summary call failed: ${classifyModelError(err).message}`);
  }
  const parsed = parseSummary(answer.text);
  if (!parsed.ok) return parsed;
  const body = summaryMessageText({ task: c.task ?? parsed.value.goal, summary: parsed.value.text, notes: c.notes, compaction: c.ordinal });
  const tail = entries.slice(cut);
  const next: Entry[] = [{ message: { role: 'user', content: body }, pinned: 'summary' }];
  if (tail[0]?.message.role === 'user') next.push({ message: { role: 'assistant', content: ACK_TEXT } });
  next.push(...tail);
  c.history.load(next);
  const done: CompactionDone = { summary: parsed.value, keptMessages: tail.length, summaryTokens: estimateTokens(body) };
  if (answer.usage) done.usage = answer.usage;
  return ok(done);
}
