/** What an extractor sees and what it proposes; the ingest pipeline stores, dedupes and supersedes. */
import type { SessionDigest } from '../../api/digest.js';
import type { MemoryType } from '../../api/memory.js';
import type { CandidateSource } from '../candidates/types.js';

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

/** A stored memory as an extractor sees it. */
export interface KnownMemory {
  id: string;
  content: string;
  type: MemoryType;
  scope: 'user' | 'project' | 'team';
  /** The slot's value, when the memory has a slot: what "supersedes" replaces. */
  value?: string;
}

export interface Proposal {
  /** One statement, self-contained, in the person's words (or the model's rewrite of them). */
  content: string;
  type: MemoryType;
  /** user: how the person works, recalled everywhere; project: about this codebase. */
  scope: 'user' | 'project';
  /** false for time-bound statements ("today", "currently down"): they decay and rank low. */
  stable: boolean;
  /** 0..1 */
  importance: number;
  /** Ids of the messages it came from (provenance). */
  messageIds: string[];
  /** Timestamp of the (last) source message, as written in the transcript. */
  at?: string;
  /**
   * An explicit change ("switched from X to Y", "use Y instead of X", "no longer X"): the old
   * things (X), so older memories in the same scope about them are superseded.
   */
  replaces?: string[];
  /** Where the person said it (typed, answer, plan…): the candidate's source. */
  said?: CandidateSource;
}

export interface ExtractResult {
  proposals: Proposal[];
  extractor: 'heuristic' | 'model';
  /** Set when the model extractor failed and the heuristic one answered instead. */
  fallback?: string;
  tokens?: { input: number; output: number };
  /** What the model calls cost, when the backend says (the Claude CLI does): for the usage ledger. */
  costUsd?: number;
}
