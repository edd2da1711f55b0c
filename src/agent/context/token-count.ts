/**
 * Token accounting anchored on the API's own count. The last response's usage (input + cache read +
 * cache creation) is what the model counted for the request that produced it; everything that
 * changed since is estimated at characters/4 (src/llm/tokens.ts) and added or subtracted. This keeps
 * the error to the few turns since the anchor instead of the whole conversation.
 */
import type { ContentBlockParam, MessageParam, ToolUnion } from '@anthropic-ai/sdk/resources/messages';
import { estimateContentTokens, estimateSystemTokens, estimateToolsTokens, estimateTokens } from '../../llm/tokens.js';
import type { SystemPrompt, UsageLike } from './types.js';

/** An image costs about (width × height) / 750 tokens, at most ~1,600 after the API downsizes it. */
export const IMAGE_TOKENS = 1600;
/** Role and separators per message, as src/llm/tokens.ts counts them. */
const MESSAGE_OVERHEAD = 4;

/** Rough tokens of one block: images at their cap, not their base64 length; the rest chars/4. */
export function blockTokens(block: ContentBlockParam): number {
  if (block.type === 'image') return IMAGE_TOKENS;
  if (block.type === 'tool_result' && Array.isArray(block.content)) {
    let n = 0;
    for (const part of block.content) {
      n += part.type === 'image' ? IMAGE_TOKENS : part.type === 'text' ? estimateTokens(part.text) : estimateTokens(JSON.stringify(part));
    }
    return n + 10; // the id and framing
  }
  const base = estimateContentTokens([block]);
  return block.type === 'tool_result' || block.type === 'tool_use' ? base + 10 : base;
}

export function messageTokens(m: MessageParam): number {
  if (typeof m.content === 'string') return MESSAGE_OVERHEAD + estimateTokens(m.content);
  return m.content.reduce((n, b) => n + blockTokens(b), MESSAGE_OVERHEAD);
}

export function messagesTokens(ms: readonly MessageParam[]): number {
  return ms.reduce((n, m) => n + messageTokens(m), 0);
}

export interface RequestParts {
  system?: SystemPrompt;
  tools?: ToolUnion[];
  messages: readonly MessageParam[];
}

/** chars/4 estimate of a whole request: system prompt, tool schemas, messages (tool inputs, images). */
export function roughRequestTokens(r: RequestParts): number {
  return estimateSystemTokens(r.system) + estimateToolsTokens(r.tools) + messagesTokens(r.messages);
}

/** What the model counted as input: uncached + cache read + cache creation. */
export function usageInputTokens(u: UsageLike): number {
  return u.input_tokens + (u.cache_read_input_tokens ?? 0) + (u.cache_creation_input_tokens ?? 0);
}

interface Anchor {
  /** Tokens the API counted for a request… */
  tokens: number;
  /** …whose chars/4 estimate was this. */
  rough: number;
}

/**
 * The anchor and the arithmetic on top of it. The ratio tokens/rough of the anchor calibrates the
 * deltas only in the safe direction: added text counts at least chars/4, freed text at most.
 */
export class TokenAccount {
  private anchor: Anchor | undefined;
  /** chars/4 of the request last handed to the loop (what the next usage will be about). */
  private sentRough: number | undefined;

  /** The request about to be sent; a usage or an overflow error that follows refers to it. */
  sent(rough: number): void {
    this.sentRough = rough;
  }

  /** Anchors on a response's usage. False when no request was recorded (nothing to anchor to). */
  onUsage(usage: UsageLike): boolean {
    if (this.sentRough === undefined) return false;
    this.anchor = { tokens: usageInputTokens(usage), rough: this.sentRough };
    return true;
  }

  /** An exact count (count_tokens, or the figure in a "prompt is too long" error) for a request. */
  onExact(tokens: number, rough = this.sentRough): void {
    if (rough !== undefined) this.anchor = { tokens, rough };
  }

  /**
   * After the history was rewritten wholesale (compaction), deltas from the old anchor would mostly
   * be freed text; the anchor's ratio applied to the new size is the better figure.
   */
  rebase(rough: number): void {
    if (this.anchor) this.anchor = { tokens: Math.ceil(rough * this.ratio), rough };
  }

  get anchored(): boolean {
    return this.anchor !== undefined;
  }

  /** Model tokens per chars/4 token, clamped; 1 before the first anchor. */
  get ratio(): number {
    if (!this.anchor || this.anchor.rough <= 0) return 1;
    return Math.min(2, Math.max(0.5, this.anchor.tokens / this.anchor.rough));
  }

  /** The estimate for a request whose chars/4 figure is `rough`. */
  estimate(rough: number): number {
    const a = this.anchor;
    if (!a) return rough;
    const delta = rough - a.rough;
    const r = this.ratio;
    const adjusted = Math.ceil(delta * (delta >= 0 ? Math.max(1, r) : Math.min(1, r)));
    return Math.max(0, a.tokens + adjusted);
  }
}
