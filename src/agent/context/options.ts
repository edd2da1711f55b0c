/**
 * The manager's public shapes: its options, what prepareRequest hands back, what onOverflow
 * decides. Kept apart so a loop can import the types without the implementation.
 */
import type { MessageParam, ToolResultBlockParam, ToolUnion } from '@anthropic-ai/sdk/resources/messages';
import type { CheckpointOutcome } from './checkpoint.js';
import type { ContextConfigInput } from './config.js';
import type { NotesState } from './notes.js';
import type { EvictionPolicy } from './policy.js';
import type { Clock, ContextError, ContextEvent, Summarizer, SystemPrompt, TierReport, TokenCounter, Zone } from './types.js';
import type { WindowSpec } from './model-window.js';

export interface ContextManagerOptions {
  window: WindowSpec;
  /** The summary model call (the loop's client, model and retries). */
  summarize: Summarizer;
  tiers?: ContextConfigInput;
  /** What to clear first when clearing by policy. Default: typeAgePolicy. */
  policy?: EvictionPolicy;
  /** Exact counts near the limit (count_tokens). Without it the estimate is trusted. */
  countTokens?: TokenCounter;
  onEvent?: (event: ContextEvent) => void;
  /** Where large tool outputs and checkpoints go. Without it nothing is written. */
  taskDir?: string;
  taskId?: string;
  clock?: Clock;
  /** Called with a copy of each compacted part, in parallel with the summary call. */
  extractMemories?: (messages: MessageParam[]) => void | Promise<void>;
  /** The task statement, kept verbatim through compactions. Default: the first user message's text. */
  task?: string;
  /** Memory block appended to the system prompt (cut to its component's hard limit). */
  memories?: string;
  notes?: Partial<NotesState>;
}

export type ToolResultInput = Omit<ToolResultBlockParam, 'type'> & { type?: 'tool_result' };

export interface PrepareInput {
  system?: SystemPrompt;
  tools?: ToolUnion[];
}

export interface PreparedRequest {
  /** A copy: send it as it is. */
  messages: MessageParam[];
  /** The system prompt given, with the memory block appended when there is one. */
  system?: SystemPrompt;
  tools?: ToolUnion[];
  /** max_tokens: the window's maxOutputTokens. tokens + maxTokens ≤ contextWindow. */
  maxTokens: number;
  tokens: number;
  exact: boolean;
  utilisation: number;
  pctOfWindow: number;
  zone: Zone;
  iteration: number;
  compacted: boolean;
  tiers: TierReport[];
}

export type { CheckpointOutcome } from './checkpoint.js';

export type OverflowDecision =
  { action: 'retry'; compacted: boolean } | { action: 'give_up'; error: ContextError; checkpoint: CheckpointOutcome } | { action: 'not_overflow' };
