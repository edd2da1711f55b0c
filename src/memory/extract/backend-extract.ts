/**
 * Model extraction, one pipeline for every backend (the API through the SDK, the Claude or Codex
 * CLI): the session is ranked as offline (offline.ts), a wider pool of its candidates is numbered
 * (model-pool.ts) and the model is asked, one structured question per run of at most 40
 * candidates (model-prompt.ts), to rewrite that list into crisp memories: keep, merge or drop,
 * citing the candidates each memory comes from (model-answer.ts). Any failure (the call, the
 * answer's shape, nothing valid) falls back to the offline proposals for the session, the reason
 * and the tokens spent recorded. A session with no candidates asks nothing. Neither the prompt nor
 * the answer is ever logged.
 */
import type { ModelBackend } from '../../llm/backend.js';
import type { Logger } from '../../log.js';
import { draftsOf, mergeDrafts, type Draft } from './model-answer.js';
import { chunksOf, poolOf, type Numbered } from './model-pool.js';
import { SYSTEM_PROMPT, userPrompt } from './model-prompt.js';
import { ANSWER_SCHEMA } from './model-schema.js';
import { rankHere, type RankMessages } from './rank-thread.js';
import type { KnownMemory } from '../store/related.js';
import type { ExtractInput, ExtractResult } from './types.js';

export interface BackendExtractOptions {
  backend: ModelBackend;
  log: Logger;
  /** Candidates a session at most (default POOL_MAX, 80). */
  maxCandidates?: number;
  /** Candidates one question at most (default PER_CALL, 40). */
  perCall?: number;
  /** Output tokens per question (default 3,000: 40 memories of a sentence each). */
  maxOutputTokens?: number;
  signal?: AbortSignal;
  /** Where the session's statements are ranked (default: on this thread). */
  rank?: RankMessages;
}

const MAX_KNOWN = 15;

/** Stored memories of the same slots as these candidates, under short aliases (K1, K2…). */
function knownFor(input: ExtractInput, candidates: readonly Numbered[]): Map<string, KnownMemory> {
  const found = input.related?.(candidates.map((c) => c.offline.text)) ?? [];
  const unique = [...new Map(found.map((m) => [m.id, m])).values()].slice(0, MAX_KNOWN);
  return new Map(unique.map((m, i) => [`K${i + 1}`, m]));
}

export async function extractWithBackend(input: ExtractInput, opts: BackendExtractOptions): Promise<ExtractResult> {
  const { offline, ranked = [] } = await (opts.rank ?? rankHere)(input.messages, input.maxMemories, true);
  const pool = input.maxMemories > 0 ? poolOf(ranked, opts.maxCandidates) : [];
  if (pool.length === 0) return offline; // nothing the person said: nothing to ask
  const { backend, log } = opts;
  const tokens = { input: 0, output: 0 };
  let costUsd: number | undefined;
  const spent = () => ({ tokens, ...(costUsd !== undefined && { costUsd }) });
  const fail = (code: string, message: string): ExtractResult => {
    log.warn({ code, reason: message, backend: backend.name, model: backend.model }, 'model extraction failed; using the offline extractor');
    return { ...offline, fallback: `${code}: ${message}`, ...spent() };
  };

  const chunks = chunksOf(pool, opts.perCall);
  const lists: Draft[][] = [];
  let dropped = 0;
  const started = Date.now();
  for (const [i, candidates] of chunks.entries()) {
    const known = knownFor(input, candidates);
    const prompt = userPrompt({
      ...(input.project !== undefined && { project: input.project }),
      ...(input.digest !== undefined && { digest: input.digest }),
      known: [...known],
      candidates,
      part: i + 1,
      parts: chunks.length,
      maxMemories: Math.min(input.maxMemories, candidates.length),
    });
    const answer = await backend.ask({
      purpose: 'extract',
      system: SYSTEM_PROMPT,
      prompt,
      schema: ANSWER_SCHEMA,
      maxOutputTokens: opts.maxOutputTokens ?? 3000,
      ...(opts.signal !== undefined && { signal: opts.signal }),
    });
    tokens.input += answer.usage?.inputTokens ?? 0;
    tokens.output += answer.usage?.outputTokens ?? 0;
    if (answer.usage?.costUsd !== undefined) costUsd = (costUsd ?? 0) + answer.usage.costUsd;
    if (!answer.ok) return fail(answer.code, answer.message);
    const parsed = draftsOf(answer.value, candidates, known);
    if (!parsed.ok) return fail(parsed.error.code, parsed.error.message);
    lists.push(parsed.drafts);
    dropped += parsed.dropped;
  }
  const proposals = mergeDrafts(lists, input.maxMemories);
  log.info(
    {
      backend: backend.name,
      model: backend.model,
      calls: chunks.length,
      candidates: pool.length,
      memories: proposals.length,
      dropped,
      tokens,
      ms: Date.now() - started,
    },
    'model extraction',
  );
  return { proposals, extractor: 'model', ...spent() };
}
