/**
 * Plain chat messages, one per JSONL line or as a JSON array: the Anthropic shape (content a string,
 * blocks or one block, tool_use/tool_result blocks) and the OpenAI chat shape (content a string or
 * text parts, `tool_calls`, role `tool`; legacy `function_call` and role `function`). A `text` field
 * stands in for a missing `content`. User text is taken as typed: these transcripts have no markers
 * of injected context.
 */
import { anthropicBlock, blockId, type BlockMessage, instructionMessages, PendingTools, toolResult, toolUse } from './blocks.js';
import { isRecord, type JsonRecord, parseJson, records, str, timestamp } from './json.js';
import { contentBlocks } from './render.js';
import type { LineParser, TranscriptMessage, TranscriptRole } from './types.js';

const ROLES: Record<string, TranscriptRole> = { user: 'user', assistant: 'assistant', system: 'system', developer: 'system' };

function functionCall(call: unknown, callId: string | undefined, tools: PendingTools): BlockMessage | undefined {
  if (!isRecord(call)) return undefined;
  const args = typeof call.arguments === 'string' ? (parseJson(call.arguments) ?? call.arguments) : call.arguments;
  return toolUse(str(call.name) ?? 'function', args ?? {}, callId, tools);
}

/** One block; a tool result brings what its call wrote into instruction files along. */
function block(raw: JsonRecord, role: TranscriptRole, tools: PendingTools): BlockMessage[] {
  if (raw.type !== 'tool_result') {
    const part = anthropicBlock(raw, role, tools);
    return part === undefined ? [] : [part];
  }
  const { message, call } = toolResult(raw.content, str(raw.tool_use_id), tools, raw.is_error === true);
  return [message, ...instructionMessages(call, message.isError === true)];
}

/** The blocks of one message in order, each as its messages (none where a block gives nothing, keeping indices stable). */
function blocks(line: JsonRecord, role: TranscriptRole, tools: PendingTools): BlockMessage[][] {
  const out = contentBlocks(line).map((raw) => (isRecord(raw) ? block(raw, role, tools) : []));
  for (const call of records(line.tool_calls)) out.push([functionCall(call.function, str(call.id), tools)].filter((m) => m !== undefined));
  if (line.function_call !== undefined) out.push([functionCall(line.function_call, undefined, tools)].filter((m) => m !== undefined));
  return out;
}

/** Ids of a block's messages: the block's id, then `<id>:instructions[:n]` for what its call wrote. */
const partId = (id: string, n: number) => (n === 0 ? id : `${id}:instructions${n === 1 ? '' : `:${n - 1}`}`);

/** A chat message: a line with a role (a JSON array of them is recognised by its first character). */
export function detect(line: JsonRecord): boolean {
  return typeof line.role === 'string';
}

export function createMessagesParser(): LineParser {
  const tools = new PendingTools();
  return {
    session: {},
    parse(line, fallbackId) {
      const base = str(line.id) ?? fallbackId;
      const time = timestamp(line.timestamp ?? line.created_at);
      const speaker = str(line.name);
      const stamp = { ...(time !== undefined && { timestamp: time }), ...(speaker !== undefined && { speaker }) };
      if (line.role === 'tool' || line.role === 'function') {
        const { message, call } = toolResult(line.content ?? line.text, str(line.tool_call_id), tools);
        const name = message.toolName ?? str(line.name);
        const stamped = { ...(time !== undefined && { timestamp: time }) };
        const written = instructionMessages(call, false).map((m, i) => ({ id: `${base}:instructions${i === 0 ? '' : `:${i}`}`, ...m, ...stamped }));
        return [{ id: base, ...message, ...(name !== undefined && { toolName: name }), ...stamped }, ...written];
      }
      const role = typeof line.role === 'string' ? ROLES[line.role] : undefined;
      if (role === undefined) return [];
      const out: TranscriptMessage[] = [];
      blocks(line, role, tools).forEach((parts, index) => {
        parts.forEach((part, n) => out.push({ id: partId(blockId(base, index), n), ...part, ...stamp }));
      });
      return out;
    },
  };
}
