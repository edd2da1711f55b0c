/** What an extractor sees and what it proposes; the ingest pipeline stores, dedupes and supersedes. */
import type { SessionDigest } from '../../api/digest.js';
import type { Proposal } from '../rank/proposals.js';
import type { KnownMemory } from '../store/related.js';

export type { ExtractMessage } from '../transcripts/types.js';
import type { ExtractMessage } from '../transcripts/types.js';

export interface ExtractInput {
  sessionId: string;
  /** Project key, when the session has one. */
  project?: string;
  messages: ExtractMessage[];
  /** At most this many candidates (default 20). */
  maxMemories: number;
  /** Active memories with the same slot (or wording) as these statements: a model may reinforce or supersede them. */
  related?: (statements: readonly string[]) => KnownMemory[];
  /** The session's digest (files, commands, errors, outcome), when the ingest built one. */
  digest?: SessionDigest;
}

/** One extraction: the offline pipeline, a model, or a model within the daily budget. */
export type Extractor = (input: ExtractInput) => Promise<ExtractResult>;

export interface ExtractResult {
  proposals: Proposal[];
  extractor: 'heuristic' | 'model';
  /** Set when the model extractor failed and the heuristic one answered instead. */
  fallback?: string;
  tokens?: { input: number; output: number };
  /** What the model calls cost, when the backend says (the Claude CLI does): for the usage ledger. */
  costUsd?: number;
}
