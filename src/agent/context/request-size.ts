/**
 * The request around the history, and its size. What frames the history: the loop's system prompt
 * with the memory block after it (cut to the memories component's hard limit), and the tools; each
 * prepareRequest sets it anew, the memory block stays until the loop changes it. Its size: the
 * chars/4 estimate scaled by the usage-anchored account, the exact count when asked, and the tokens
 * of each component.
 */
import type { MessageParam, ToolUnion } from '@anthropic-ai/sdk/resources/messages';
import { limitTokens, measureComponents, memoryBlock, withBlock, type ComponentUsage } from './components.js';
import type { ContextConfig } from './config.js';
import { roughRequestTokens, type TokenAccount } from './token-count.js';
import type { History } from './history.js';
import type { PrepareInput } from './options.js';
import type { ComponentName, SystemPrompt, TokenCounter } from './types.js';
import type { WindowSpec } from './model-window.js';

/** A request's size: the rough estimate and the tokens it stands for. */
export type Measure = { rough: number; tokens: number };

/** A request's parts, as the API and count_tokens take them. */
export interface FramedRequest {
  system?: SystemPrompt;
  tools?: ToolUnion[];
  messages: MessageParam[];
}

export class RequestMeter {
  private given: PrepareInput = {};
  private system: SystemPrompt | undefined;

  constructor(
    private readonly history: History,
    private readonly account: TokenAccount,
    private readonly config: ContextConfig,
    private readonly window: WindowSpec,
    private memories: string | undefined,
  ) {}

  setMemories(text: string | undefined): void {
    this.memories = text;
  }

  /** The loop's system prompt and tools for the next request. */
  set(input: PrepareInput): void {
    const block = this.memories && memoryBlock(this.memories, limitTokens(this.config.components.memories, this.window.contextWindow).hard);
    this.given = { ...input };
    this.system = withBlock(input.system, block);
  }

  /** The history in the frame: the system prompt (memories included) and the tools, when there are any. */
  request(messages: MessageParam[] = this.history.messages()): FramedRequest {
    const tools = this.given.tools;
    return { ...(this.system !== undefined ? { system: this.system } : {}), ...(tools ? { tools } : {}), messages };
  }

  measure(): Measure {
    const rough = roughRequestTokens(this.request());
    return { rough, tokens: this.account.estimate(rough) };
  }

  /** The exact figure from count_tokens, anchoring the account; undefined when counting failed (the estimate stands). */
  async exact(count: TokenCounter, rough: number): Promise<number | undefined> {
    let n: number;
    try {
      n = await count(this.request());
    } catch {
      return undefined; // counting refines the estimate; nothing depends on it
    }
    this.account.onExact(n, rough);
    return n;
  }

  /** Tokens per component, the system prompt counted without the memory block (a component of its own). */
  components(): Record<ComponentName, ComponentUsage> {
    const { system, tools } = this.given;
    const input = { system, tools, memories: this.memories, messages: this.history.messages(), maxOutputTokens: this.window.maxOutputTokens };
    return measureComponents(input, this.window.contextWindow, this.config.components);
  }
}
