/**
 * Types shared by the context-management modules: results as values, the usage shape the manager
 * anchors on, the events it reports and the report every tier returns.
 */
import type { MessageParam, TextBlockParam, ToolUnion } from '@anthropic-ai/sdk/resources/messages';

export type ContextErrorCode =
  | 'invalid_window'
  | 'context_full'
  | 'nothing_to_compact'
  | 'compaction_failed'
  | 'breaker_open'
  | 'overflow'
  | 'checkpoint_stale'
  | 'checkpoint_invalid'
  | 'transcript_mismatch'
  | 'io_error';

export interface ContextError {
  code: ContextErrorCode;
  message: string;
}

export type Result<T, E = ContextError> = { ok: true; value: T } | { ok: false; error: E };

export const ok = <T>(value: T): { ok: true; value: T } => ({ ok: true, value });
export const fail = (code: ContextErrorCode, message: string): { ok: false; error: ContextError } => ({ ok: false, error: { code, message } });

/** What the manager reads of a response's `usage` (the SDK's `Usage` is assignable). */
export interface UsageLike {
  input_tokens: number;
  output_tokens?: number;
  cache_read_input_tokens?: number | null;
  cache_creation_input_tokens?: number | null;
}

/** Milliseconds since the epoch; injectable so tests can move time. */
export type Clock = () => number;

export type Zone = 'green' | 'yellow' | 'orange' | 'red';
export type TierName = 'budget' | 'snip' | 'microcompact' | 'prune' | 'evict';
export type CompactionTrigger = 'proactive' | 'reactive' | 'manual';
export type ComponentName = 'systemPrompt' | 'toolDefinitions' | 'history' | 'toolResults' | 'memories' | 'outputReserve';

/** What one tier did to the history. */
export interface TierReport {
  tier: TierName;
  /** Blocks changed (cut, cleared). */
  blocks: number;
  /** Estimated tokens (chars/4) the change removed. */
  freedTokens: number;
}

export const noChange = (tier: TierName): TierReport => ({ tier, blocks: 0, freedTokens: 0 });

/** The model call the loop makes for compaction (the manager never talks to the API itself). */
export interface SummarizeRequest {
  system: string;
  messages: MessageParam[];
  maxTokens: number;
}

export interface SummarizeResponse {
  text: string;
  usage?: UsageLike;
}

export type Summarizer = (request: SummarizeRequest) => Promise<SummarizeResponse>;

/** Exact input tokens of a request (the count_tokens endpoint). */
export type TokenCounter = (request: { system?: SystemPrompt; messages: MessageParam[]; tools?: ToolUnion[] }) => Promise<number>;

export type SystemPrompt = string | TextBlockParam[];

/** Everything the manager reports; `onEvent` gets each as it happens (the loop logs them). */
export type ContextEvent = { at: string } & (
  | {
      type: 'iteration';
      iteration: number;
      tokens: number;
      exact: boolean;
      /** tokens / context window. */
      pctOfWindow: number;
      /** tokens / input budget (context window − max output tokens): what zones and tiers use. */
      utilisation: number;
      zone: Zone;
      velocity: number;
      turnsUntilRed: number | null;
    }
  | { type: 'zone_change'; from: Zone; to: Zone; tokens: number }
  | { type: 'tier'; tier: TierName; blocks: number; freedTokens: number; iteration: number }
  | { type: 'persisted'; toolUseId: string; path: string; bytes: number }
  | { type: 'truncated'; toolUseId: string; chars: number; reason: string }
  | { type: 'exact_count'; estimate: number; exact: number }
  | { type: 'invariants_repaired'; repairs: string[] }
  | { type: 'component_limit'; component: ComponentName; level: 'soft' | 'hard'; tokens: number; limit: number }
  | {
      type: 'compaction';
      trigger: CompactionTrigger;
      ok: boolean;
      beforeTokens: number;
      afterTokens?: number;
      keptMessages?: number;
      summaryTokens?: number;
      /** The summary call's usage, as the loop's summarize returned it. */
      summaryUsage?: UsageLike;
      error?: ContextError;
    }
  | { type: 'breaker_open'; failures: number }
  | { type: 'overflow'; code: string; message: string; action: 'retry' | 'give_up' }
  | { type: 'checkpoint'; version: number; jsonPath?: string; mdPath?: string; error?: ContextError }
  | { type: 'memory_extraction_failed'; message: string }
  | { type: 'resumed'; version: number; messages: number }
);

/** An event before the manager stamps it. */
export type ContextEventInput = ContextEvent extends infer E ? (E extends { at: string } ? Omit<E, 'at'> : never) : never;
