/**
 * Model extraction through a ModelBackend (the Claude or Codex CLI, or the API): the heuristics run
 * first; the model then reads a compact digest of the session (digest-items.ts, digest-prompt.ts)
 * with their candidates and the stored memories of the same slots, and answers with the memories
 * to keep. One call for a typical session; a long one is split at message boundaries, at most
 * `maxCalls` calls, the heuristics' candidates standing for the statements past them. Any failure
 * (the call, the answer's shape) falls back to the heuristics for the session, the reason recorded.
 * Neither the prompt nor the answer is ever logged.
 */
import type { ModelBackend } from '../../llm/backend.js';
import type { Logger } from '../../log.js';
import { digestCandidates } from './digest-answer.js';
import { digestItems } from './digest-items.js';
import { DIGEST_SCHEMA, DIGEST_SYSTEM_PROMPT, digestLines, digestPrompt } from './digest-prompt.js';
import { mergeCandidates } from './llm-answer.js';
import { chunkMessages, chunkText, type RenderedMessage } from './llm-render.js';
import type { Proposal as Candidate, ExtractInput, ExtractResult, KnownMemory } from './types.js';

export interface BackendExtractOptions {
  backend: ModelBackend;
  log: Logger;
  /** The heuristic extractor: its candidates go into the digest, and it answers when the model fails. */
  fallback: (input: ExtractInput) => ExtractResult | Promise<ExtractResult>;
  /** Statement tokens per call (default 5,000): with the rest of the prompt a call stays near 8k. */
  chunkTokens?: number;
  /** Calls per session at most (default 4). */
  maxCalls?: number;
  /** Output tokens per call (default 1,024). */
  maxOutputTokens?: number;
  signal?: AbortSignal;
}

const MAX_KNOWN = 15;
/** Memories asked of one call: what fits the output tokens of one answer. */
const PER_CALL = 15;

/** Stored memories of the same slots as the heuristics' candidates, under short aliases. */
function knownMemories(input: ExtractInput, candidates: Candidate[]): Map<string, KnownMemory> {
  const found = input.related?.(candidates.map((c) => c.content)) ?? [];
  const unique = [...new Map(found.map((m) => [m.id, m])).values()].slice(0, MAX_KNOWN);
  return new Map(unique.map((m, i) => [`K${i + 1}`, m]));
}

export async function extractWithBackend(input: ExtractInput, opts: BackendExtractOptions): Promise<ExtractResult> {
  const heuristic = await opts.fallback(input);
  const items = digestItems(input.messages);
  if (items.length === 0 || input.maxMemories <= 0) return heuristic; // nothing the person said: nothing to ask
  const tokens = { input: 0, output: 0 };
  let costUsd: number | undefined;
  const spent = () => ({ tokens, ...(costUsd !== undefined && { costUsd }) });
  const fail = (code: string, message: string): ExtractResult => {
    opts.log.warn({ code, reason: message, backend: opts.backend.name, model: opts.backend.model }, 'model extraction failed; using the heuristic extractor');
    return { ...heuristic, fallback: `${code}: ${message}`, ...spent() };
  };

  const chunks = chunkMessages(items, opts.chunkTokens ?? 5000);
  const maxCalls = Math.max(1, opts.maxCalls ?? 4);
  const asked = chunks.slice(0, maxCalls);
  const unasked = new Set(chunks.slice(maxCalls).flatMap((c) => c.map((r) => r.id)));
  const known = knownMemories(input, heuristic.proposals);
  // Any message of the session may be cited (a learning the heuristics found in the agent's words).
  const messages = new Map<string, RenderedMessage>(
    input.messages.map((m, index) => [m.id, { id: m.id, index, ...(m.timestamp !== undefined && { timestamp: m.timestamp }), text: '', tokens: 0 }]),
  );
  const lists: Candidate[][] = [];
  const started = Date.now();
  for (const [i, chunk] of asked.entries()) {
    const ids = new Set(chunk.map((r) => r.id));
    const own = asked.length === 1 ? heuristic.proposals : heuristic.proposals.filter((c) => c.messageIds.some((id) => ids.has(id)));
    const prompt = digestPrompt({
      ...(input.project !== undefined && { project: input.project }),
      digest: i === 0 ? digestLines(input.digest) : [],
      known: [...known],
      candidates: own,
      statements: chunkText(chunk),
      part: i + 1,
      parts: asked.length,
      maxMemories: Math.min(input.maxMemories, PER_CALL),
    });
    const answer = await opts.backend.ask({
      purpose: 'extract',
      system: DIGEST_SYSTEM_PROMPT,
      prompt,
      schema: DIGEST_SCHEMA,
      maxOutputTokens: opts.maxOutputTokens ?? 1024,
      ...(opts.signal !== undefined && { signal: opts.signal }),
    });
    tokens.input += answer.usage?.inputTokens ?? 0;
    tokens.output += answer.usage?.outputTokens ?? 0;
    if (answer.usage?.costUsd !== undefined) costUsd = (costUsd ?? 0) + answer.usage.costUsd;
    if (!answer.ok) return fail(answer.code, answer.message);
    const parsed = digestCandidates(answer.value, { messages, ...(input.project !== undefined && { project: input.project }) }, known);
    if (!parsed.ok) return fail(parsed.error.code, parsed.error.message);
    lists.push(parsed.candidates);
  }
  // Statements past the last call keep what the heuristics found in them.
  lists.push(heuristic.proposals.filter((c) => c.messageIds.length > 0 && c.messageIds.every((id) => unasked.has(id))));
  opts.log.info(
    {
      backend: opts.backend.name,
      model: opts.backend.model,
      calls: asked.length,
      skippedParts: chunks.length - asked.length,
      tokens,
      ms: Date.now() - started,
    },
    'model extraction',
  );
  return { proposals: mergeCandidates(lists, input.maxMemories), extractor: 'model', ...spent() };
}
