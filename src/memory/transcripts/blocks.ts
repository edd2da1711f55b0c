import { flag, type JsonRecord, str } from './json.js';
import { renderToolUse, toolOutputText } from './render.js';
import type { TranscriptMessage, TranscriptRole } from './types.js';

/** What one content block contributes to a message; the caller adds id, time and session fields. */
export type BlockMessage = Pick<TranscriptMessage, 'role' | 'kind' | 'text' | 'toolName' | 'toolUseId' | 'isError'>;

const MAX_PENDING_TOOLS = 10_000;

/**
 * Tool names of calls still waiting for their result, so a result (which only carries the call id)
 * can name its tool. Bounded: entries leave when their result arrives, the oldest when it is full.
 * A parse resumed from an offset does not know calls made before it; those results stay unnamed.
 */
export class PendingTools {
  private readonly names = new Map<string, string>();

  add(id: string, name: string): void {
    this.names.set(id, name);
    if (this.names.size > MAX_PENDING_TOOLS) {
      const oldest = this.names.keys().next();
      if (oldest.done !== true) this.names.delete(oldest.value);
    }
  }

  take(id: string): string | undefined {
    const name = this.names.get(id);
    this.names.delete(id);
    return name;
  }
}

/** The id of block `index` of a line: the first block keeps the line's id so ids stay recognisable. */
export function blockId(base: string, index: number): string {
  return index === 0 ? base : `${base}:${index}`;
}

export function toolUse(name: string, input: unknown, callId: string | undefined, tools: PendingTools): BlockMessage {
  if (callId !== undefined) tools.add(callId, name);
  return {
    role: 'assistant',
    kind: 'tool_use',
    text: renderToolUse(name, input),
    toolName: name,
    ...(callId !== undefined && { toolUseId: callId }),
  };
}

export function toolResult(output: unknown, callId: string | undefined, tools: PendingTools): BlockMessage {
  const name = callId === undefined ? undefined : tools.take(callId);
  return {
    role: 'user',
    kind: 'tool_result',
    text: toolOutputText(output),
    ...(name !== undefined && { toolName: name }),
    ...(callId !== undefined && { toolUseId: callId }),
  };
}

/**
 * An Anthropic content block (also the text parts of OpenAI-style content). Blank text, images,
 * redacted thinking and unknown block types give nothing.
 */
export function anthropicBlock(block: JsonRecord, role: TranscriptRole, tools: PendingTools): BlockMessage | undefined {
  switch (block.type) {
    case 'text':
    case 'input_text':
    case 'output_text': {
      const text = str(block.text);
      return text === undefined || text.trim() === '' ? undefined : { role, kind: 'text', text };
    }
    case 'thinking': {
      const text = str(block.thinking);
      return text === undefined ? undefined : { role: 'assistant', kind: 'thinking', text };
    }
    case 'tool_use':
    case 'server_tool_use':
      return toolUse(str(block.name) ?? 'tool', block.input ?? {}, str(block.id), tools);
    case 'tool_result':
      return { ...toolResult(block.content, str(block.tool_use_id), tools), ...flag('isError', block.is_error) };
    default:
      return undefined;
  }
}
