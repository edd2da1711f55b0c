/**
 * Token estimates without a tokenizer: ceil(characters / 4). Good enough for budgets when a margin
 * is kept; code and non-English text run denser, so callers leave headroom (or ask count_tokens).
 */
import type { ContentBlockParam, MessageParam, TextBlockParam, ToolUnion } from '@anthropic-ai/sdk/resources/messages';

export const CHARS_PER_TOKEN = 4;

/** Small per-message framing cost (role, separators) the API charges beyond the text. */
const MESSAGE_OVERHEAD = 4;

export function estimateTokens(text: string): number {
  return Math.ceil(text.length / CHARS_PER_TOKEN);
}

/** Characters that fit in `tokens` by the same estimate. */
export function charsForTokens(tokens: number): number {
  return Math.max(0, Math.floor(tokens * CHARS_PER_TOKEN));
}

function blockChars(block: ContentBlockParam): number {
  switch (block.type) {
    case 'text':
      return block.text.length;
    case 'tool_use':
      return block.name.length + JSON.stringify(block.input ?? {}).length;
    case 'tool_result': {
      const c = block.content;
      if (c === undefined) return 0;
      if (typeof c === 'string') return c.length;
      return c.reduce((n, b) => n + (b.type === 'text' ? b.text.length : JSON.stringify(b).length), 0);
    }
    case 'thinking':
      return block.thinking.length;
    case 'redacted_thinking':
      return block.data.length;
    default:
      // Images and documents: the serialized size overestimates, which is the safe side.
      return JSON.stringify(block).length;
  }
}

export function estimateContentTokens(content: string | ContentBlockParam[]): number {
  if (typeof content === 'string') return estimateTokens(content);
  return Math.ceil(content.reduce((n, b) => n + blockChars(b), 0) / CHARS_PER_TOKEN);
}

export function estimateSystemTokens(system: string | TextBlockParam[] | undefined): number {
  if (system === undefined) return 0;
  if (typeof system === 'string') return estimateTokens(system);
  return estimateTokens(system.map((b) => b.text).join('\n'));
}

export function estimateToolsTokens(tools: ToolUnion[] | undefined): number {
  if (!tools) return 0;
  return tools.reduce((n, t) => n + estimateTokens(JSON.stringify(t)), 0);
}

export interface RequestShape {
  system?: string | TextBlockParam[];
  messages: MessageParam[];
  tools?: ToolUnion[];
}

/** Input tokens of a Messages request: system + messages (tool inputs and results counted) + tools. */
export function estimateRequestTokens(req: RequestShape): number {
  const messages = req.messages.reduce((n, m) => n + MESSAGE_OVERHEAD + estimateContentTokens(m.content), 0);
  return estimateSystemTokens(req.system) + messages + estimateToolsTokens(req.tools);
}
