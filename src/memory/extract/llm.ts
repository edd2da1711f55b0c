/**
 * Model extraction: the transcript (tool output clipped) goes to the model in chunks that fit its
 * window; each answer is a record_memories tool call (or JSON text). Any failure — API error after
 * the SDK's retries, an empty or unparseable answer, nothing valid in a non-empty one — falls back to
 * the heuristic extractor, with the reason recorded. The transcript and the key are never logged.
 */
import type Anthropic from '@anthropic-ai/sdk';
import type { Logger } from '../../log.js';
import { classifyModelError, type ModelError } from '../../llm/errors.js';
import { answerItems, mergeCandidates, toCandidate, type AnswerError } from './llm-answer.js';
import { promptOverheadTokens, RECORD_TOOL, RECORD_TOOL_NAME, SYSTEM_PROMPT, userPrompt } from './llm-prompt.js';
import { chunkMessages, chunkText, renderTranscript, type RenderedMessage } from './llm-render.js';
import type { Proposal as Candidate, ExtractInput, ExtractResult } from './types.js';

export interface ModelExtractOptions {
  client: Anthropic;
  model: string;
  log: Logger;
  /** Model context window in tokens (default 200,000). */
  contextWindow?: number;
  /** max_tokens of each answer (default 4,096). */
  maxOutputTokens?: number;
  /** The heuristic extractor, used when the model fails. */
  fallback: (input: ExtractInput) => ExtractResult | Promise<ExtractResult>;
  signal?: AbortSignal;
}

/** chars/4 undercounts code and non-English text: chunks use this share of the free window. */
const BUDGET_SHARE = 0.85;
/** Below this many transcript tokens per chunk, the window is too small to be worth it. */
const MIN_CHUNK_TOKENS = 256;

/** Why the model answer was not used. */
interface Failure extends Omit<ModelError, 'code'> {
  code: ModelError['code'] | AnswerError['code'] | 'no_valid_memories' | 'window_too_small';
}
type ChunkOutcome = { ok: true; candidates: Candidate[] } | { ok: false; failure: Failure };

interface Run {
  input: ExtractInput;
  opts: ModelExtractOptions;
  tokens: { input: number; output: number };
  parts: number;
}

async function askChunk(run: Run, chunk: RenderedMessage[], part: number): Promise<ChunkOutcome> {
  const { input, opts } = run;
  let message: Anthropic.Messages.Message;
  try {
    const stream = opts.client.messages.stream(
      {
        model: opts.model,
        max_tokens: opts.maxOutputTokens ?? 4096,
        system: SYSTEM_PROMPT,
        tools: [RECORD_TOOL],
        tool_choice: { type: 'tool', name: RECORD_TOOL_NAME },
        messages: [{ role: 'user', content: userPrompt(chunkText(chunk), { project: input.project, maxMemories: input.maxMemories, part, parts: run.parts }) }],
      },
      opts.signal ? { signal: opts.signal } : {},
    );
    message = await stream.finalMessage();
  } catch (err) {
    return { ok: false, failure: classifyModelError(err) };
  }
  const u = message.usage;
  run.tokens.input += u.input_tokens + (u.cache_read_input_tokens ?? 0) + (u.cache_creation_input_tokens ?? 0);
  run.tokens.output += u.output_tokens;
  if (message.stop_reason === 'max_tokens')
    opts.log.info({ part, maxOutputTokens: opts.maxOutputTokens ?? 4096 }, 'model extraction answer hit max_tokens; keeping what parsed');

  const items = answerItems(message);
  if (!items.ok) return { ok: false, failure: items.error };
  const ctx = { messages: new Map(chunk.map((r) => [r.id, r])), ...(input.project ? { project: input.project } : {}) };
  const candidates = items.items.map((raw) => toCandidate(raw, ctx)).filter((c): c is Candidate => c !== undefined);
  if (items.items.length > 0 && candidates.length === 0) {
    return { ok: false, failure: { code: 'no_valid_memories', message: `none of the ${items.items.length} memories in the answer was valid` } };
  }
  return { ok: true, candidates };
}

/** One chunk; a chunk the API finds too long is split once more, by the ratio the API reported. */
async function runChunk(run: Run, chunk: RenderedMessage[], part: number, resplit: boolean): Promise<ChunkOutcome> {
  const out = await askChunk(run, chunk, part);
  if (out.ok || !resplit || chunk.length < 2) return out;
  if (out.failure.code !== 'prompt_too_long' && out.failure.code !== 'request_too_large') return out;
  // The API counts more than the estimate did: shrink by its ratio (with a margin), at least halve.
  const ratio = out.failure.promptTokens ? out.failure.promptTokens.max / out.failure.promptTokens.actual : 0.5;
  const size = chunk.reduce((n, r) => n + r.tokens, 0);
  const smaller = chunkMessages(chunk, Math.max(MIN_CHUNK_TOKENS, Math.floor(size * Math.min(0.5, ratio * 0.8))));
  run.opts.log.info({ part, pieces: smaller.length }, 'model extraction chunk too long for the model; splitting it');
  const found: Candidate[] = [];
  for (const piece of smaller) {
    const r = await runChunk(run, piece, part, false);
    if (!r.ok) return r;
    found.push(...r.candidates);
  }
  return { ok: true, candidates: found };
}

export async function extractWithModel(input: ExtractInput, opts: ModelExtractOptions): Promise<ExtractResult> {
  const run: Run = { input, opts, tokens: { input: 0, output: 0 }, parts: 1 };
  const fail = async (failure: Failure): Promise<ExtractResult> => {
    opts.log.warn(
      { code: failure.code, status: failure.status, requestId: failure.requestId, reason: failure.message, model: opts.model },
      'model extraction failed; using the heuristic extractor',
    );
    const fb = await opts.fallback(input);
    return { ...fb, fallback: `${failure.code}: ${failure.message}`, tokens: { ...run.tokens } };
  };

  const rendered = renderTranscript(input.messages);
  if (rendered.length === 0 || input.maxMemories <= 0) return { proposals: [], extractor: 'model', tokens: run.tokens };

  const overhead = promptOverheadTokens({ project: input.project, maxMemories: input.maxMemories, part: 99, parts: 99 });
  const free = (opts.contextWindow ?? 200_000) - (opts.maxOutputTokens ?? 4096) - overhead;
  const budget = Math.floor(free * BUDGET_SHARE);
  if (budget < MIN_CHUNK_TOKENS) {
    return fail({ code: 'window_too_small', message: `the context window (${opts.contextWindow ?? 200_000} tokens) leaves no room for the transcript` });
  }
  const chunks = chunkMessages(rendered, budget);
  run.parts = chunks.length;
  if (chunks.length > 1) opts.log.debug({ chunks: chunks.length, budget }, 'model extraction: transcript split into chunks');

  const lists: Candidate[][] = [];
  for (const [i, chunk] of chunks.entries()) {
    const r = await runChunk(run, chunk, i + 1, true);
    if (!r.ok) return fail(r.failure);
    lists.push(r.candidates);
  }
  return { proposals: mergeCandidates(lists, input.maxMemories), extractor: 'model', tokens: run.tokens };
}
