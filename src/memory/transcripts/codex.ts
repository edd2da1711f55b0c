/**
 * Codex CLI rollouts (`~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl`). Current rollouts wrap each
 * line as `{timestamp, type, payload}`; older ones wrote bare response items after an
 * `{id, timestamp, instructions}` header, with `{record_type: 'state'}` lines in between.
 *
 * `event_msg` lines are skipped: Codex persists user_message, agent_message and agent_reasoning
 * events next to the `response_item` lines that hold the same text, and its other events
 * (token_count, …) are not conversation.
 *
 * Codex items often have no id (user messages, tool outputs), so every message is named by its
 * line's byte offset: unique and stable in an append-only file.
 */
import { PendingTools, toolResult, toolUse } from './blocks.js';
import { isRecord, type JsonRecord, parseJson, str, timestamp } from './json.js';
import { contentText } from './render.js';
import type { LineParser, SessionInfo, TranscriptMessage } from './types.js';

type Item = Omit<TranscriptMessage, 'id'>;

/** Context Codex injects as user messages: the user did not type it. */
const INJECTED = /^\s*(?:<environment_context>|<user_instructions>|# AGENTS\.md instructions)/;

/** Shell tools return `{"output": …, "metadata": {"exit_code": n}}` as a JSON string. */
function unwrapOutput(output: unknown): { output: unknown; failed: boolean } {
  const parsed = typeof output === 'string' && output.startsWith('{') ? parseJson(output) : output;
  if (!isRecord(parsed) || typeof parsed.output !== 'string') return { output, failed: false };
  const exitCode = isRecord(parsed.metadata) ? parsed.metadata.exit_code : undefined;
  return { output: parsed.output, failed: typeof exitCode === 'number' && exitCode !== 0 };
}

function responseItem(payload: JsonRecord, tools: PendingTools): Item | undefined {
  switch (payload.type) {
    case 'message': {
      const text = contentText(payload.content);
      if (text.trim() === '') return undefined;
      if (payload.role === 'assistant') return { role: 'assistant', kind: 'text', text };
      if (payload.role !== 'user') return { role: 'system', kind: 'text', text };
      return { role: 'user', kind: 'text', text, ...(INJECTED.test(text) && { meta: true }) };
    }
    case 'function_call': {
      const args = typeof payload.arguments === 'string' ? (parseJson(payload.arguments) ?? payload.arguments) : payload.arguments;
      return toolUse(str(payload.name) ?? 'function', args ?? {}, str(payload.call_id), tools);
    }
    case 'custom_tool_call':
      return toolUse(str(payload.name) ?? 'tool', payload.input ?? '', str(payload.call_id), tools);
    case 'local_shell_call':
      return toolUse('local_shell', payload.action ?? {}, str(payload.call_id), tools);
    case 'web_search_call':
      return toolUse('web_search', payload.action ?? {}, undefined, tools);
    case 'function_call_output':
    case 'custom_tool_call_output': {
      const { output, failed } = unwrapOutput(payload.output);
      return { ...toolResult(output, str(payload.call_id), tools), ...(failed && { isError: true }) };
    }
    case 'reasoning': {
      // The summary is what Codex shows; raw reasoning content is rarely persisted.
      const text = contentText(payload.summary) || contentText(payload.content);
      return text.trim() === '' ? undefined : { role: 'assistant', kind: 'thinking', text };
    }
    default:
      return undefined;
  }
}

export function createCodexParser(): LineParser {
  const session: SessionInfo = {};
  const tools = new PendingTools();
  let cwd: string | undefined;

  function enter(sessionId: string | undefined, dir: string | undefined): void {
    session.sessionId ??= sessionId;
    session.cwd ??= dir;
    cwd = dir ?? cwd;
  }

  function item(line: JsonRecord): Item | undefined {
    const payload = isRecord(line.payload) ? line.payload : {};
    switch (line.type) {
      case 'session_meta':
        enter(str(payload.id), str(payload.cwd));
        return undefined;
      case 'turn_context':
        enter(undefined, str(payload.cwd));
        return undefined;
      case 'response_item':
        return responseItem(payload, tools);
      case 'compacted': {
        const text = str(payload.message);
        return text === undefined ? undefined : { role: 'user', kind: 'summary', text, compactSummary: true };
      }
      case 'event_msg':
        return undefined;
      case undefined:
        // Old rollout header: `{id, timestamp, instructions}`.
        if (!('role' in line) && str(line.id) !== undefined) enter(str(line.id), undefined);
        return undefined;
      default:
        // Old rollouts: a bare response item (its `type` is the item type).
        return 'payload' in line ? undefined : responseItem(line, tools);
    }
  }

  return {
    session,
    parse(line, fallbackId) {
      const found = item(line);
      if (found === undefined) return [];
      const time = timestamp(line.timestamp);
      return [
        {
          id: fallbackId,
          ...found,
          ...(time !== undefined && { timestamp: time }),
          ...(session.sessionId !== undefined && { sessionId: session.sessionId }),
          ...(cwd !== undefined && { cwd }),
        },
      ];
    },
  };
}
