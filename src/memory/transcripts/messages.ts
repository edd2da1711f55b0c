/**
 * Plain chat messages, one per JSONL line or as a JSON array: the Anthropic shape (content a string
 * or blocks, tool_use/tool_result blocks) and the OpenAI chat shape (content a string or text parts,
 * `tool_calls`, role `tool`; legacy `function_call` and role `function`).
 */
import { anthropicBlock, blockId, type BlockMessage, PendingTools, toolResult, toolUse } from './blocks.js';
import { isRecord, type JsonRecord, parseJson, records, str, timestamp } from './json.js';
import type { LineParser, TranscriptMessage, TranscriptRole } from './types.js';

const ROLES: Record<string, TranscriptRole> = { user: 'user', assistant: 'assistant', system: 'system', developer: 'system' };

function functionCall(call: unknown, callId: string | undefined, tools: PendingTools): BlockMessage | undefined {
  if (!isRecord(call)) return undefined;
  const args = typeof call.arguments === 'string' ? (parseJson(call.arguments) ?? call.arguments) : call.arguments;
  return toolUse(str(call.name) ?? 'function', args ?? {}, callId, tools);
}

/** The blocks of one message in order, `undefined` where a block gives nothing (keeps indices stable). */
function blocks(line: JsonRecord, role: TranscriptRole, tools: PendingTools): (BlockMessage | undefined)[] {
  const { content } = line;
  const out: (BlockMessage | undefined)[] = [];
  if (typeof content === 'string') out.push(content.trim() === '' ? undefined : { role, kind: 'text', text: content });
  else if (Array.isArray(content)) for (const block of content) out.push(isRecord(block) ? anthropicBlock(block, role, tools) : undefined);
  for (const call of records(line.tool_calls)) out.push(functionCall(call.function, str(call.id), tools));
  if (line.function_call !== undefined) out.push(functionCall(line.function_call, undefined, tools));
  return out;
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
        const result = toolResult(line.content, str(line.tool_call_id), tools);
        const name = result.toolName ?? str(line.name);
        return [{ id: base, ...result, ...(name !== undefined && { toolName: name }), ...(time !== undefined && { timestamp: time }) }];
      }
      const role = typeof line.role === 'string' ? ROLES[line.role] : undefined;
      if (role === undefined) return [];
      const out: TranscriptMessage[] = [];
      blocks(line, role, tools).forEach((part, index) => {
        if (part !== undefined) out.push({ id: blockId(base, index), ...part, ...stamp });
      });
      return out;
    },
  };
}
