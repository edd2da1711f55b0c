import { isRecord, type JsonRecord, records, str } from './json.js';

export const TOOL_USE_MAX = 200;
/** A tool result is evidence; 32 KiB of it is plenty, and it bounds what one message can hold. */
export const TOOL_RESULT_MAX = 32 * 1024;

/** Cuts to `max` chars (an ellipsis included) without splitting a surrogate pair. */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  let cut = max - 1;
  const code = text.charCodeAt(cut - 1);
  if (code >= 0xd800 && code <= 0xdbff) cut--;
  return `${text.slice(0, cut)}…`;
}

export function clipResult(text: string): string {
  if (text.length <= TOOL_RESULT_MAX) return text;
  return `${clip(text, TOOL_RESULT_MAX)} [${text.length - TOOL_RESULT_MAX} more chars]`;
}

/** `name(arguments)`: arguments as compact JSON, or verbatim when they already are a string. */
export function renderToolUse(name: string, input: unknown): string {
  const args = typeof input === 'string' ? input : (JSON.stringify(input) ?? '');
  return clip(`${name}(${args === '{}' ? '' : args})`, TOOL_USE_MAX);
}

/**
 * Text of a content value: a string, or an array of parts (`text`, `input_text`, `output_text`;
 * images become `[image]`, other parts are skipped). Parts are joined by newlines.
 */
export function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  const parts: string[] = [];
  for (const part of records(content)) {
    const text = str(part.text);
    if (text !== undefined) parts.push(text);
    else if (part.type === 'image' || part.type === 'input_image' || part.type === 'image_url') parts.push('[image]');
  }
  return parts.join('\n');
}

/** Text of a tool result's content, whatever the shape: string, parts array or a wrapper object. */
export function toolOutputText(output: unknown): string {
  if (typeof output === 'string' || Array.isArray(output)) return clipResult(contentText(output));
  if (isRecord(output)) return toolOutputText(output.content ?? output.output ?? output.text ?? '');
  return output === undefined || output === null ? '' : clipResult(JSON.stringify(output));
}

/** Content blocks of a message, whatever shape it came in (string, blocks, one block, a `text` field). */
export function contentBlocks(message: JsonRecord): unknown[] {
  const { content } = message;
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  if (Array.isArray(content)) return content;
  if (isRecord(content)) return [content];
  const text = str(message.text);
  return text === undefined ? [] : [{ type: 'text', text }];
}
