/**
 * Codex CLI rollouts (`~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl`). Current rollouts wrap each
 * line as `{timestamp, type, payload}`; older ones wrote bare response items after an
 * `{id, timestamp, instructions}` header, with `{record_type: 'state'}` lines in between.
 *
 * `event_msg` lines are skipped: Codex persists user_message, agent_message, agent_reasoning,
 * turn_aborted and plan events next to the `response_item` lines that hold the same text, and its
 * other events (token_count, …) are not conversation.
 *
 * Codex items often have no id (user messages, tool outputs), so every message is named by its
 * line's byte offset (`@<offset>`, `@<offset>:<part>` for later parts): unique and stable in an
 * append-only file.
 */
import { blockId, type BlockMessage, instructionMessages, PendingTools, statedExitCode, toolResult, toolUse } from './blocks.js';
import { isRecord, type JsonRecord, parseJson, records, str, timestamp } from './json.js';
import { codexUserText, INJECTED } from './origins.js';
import { contentText } from './render.js';
import type { LineParser, SessionInfo, TranscriptMessage } from './types.js';

type Item = BlockMessage;

const PROPOSED_PLAN = /<proposed_plan>([\s\S]*?)<\/proposed_plan>/;
/** What Codex sends when the person picks "implement this plan". */
const IMPLEMENT_PLAN = /^\s*implement (?:the|this) plan\.?\s*$/i;

/** Shell tools return `{"output": …, "metadata": {"exit_code": n}}` as a JSON string. */
function unwrapOutput(output: unknown): { output: unknown; exitCode?: number } {
  const parsed = typeof output === 'string' && output.startsWith('{') ? parseJson(output) : output;
  if (!isRecord(parsed) || typeof parsed.output !== 'string') return { output };
  const exitCode = isRecord(parsed.metadata) ? parsed.metadata.exit_code : undefined;
  return { output: parsed.output, ...(typeof exitCode === 'number' && { exitCode }) };
}

/** The text parts of a message, one item each (images and blank parts give none, keeping part indices). */
function messageParts(payload: JsonRecord): (Item | undefined)[] {
  const role = payload.role;
  const parts = typeof payload.content === 'string' ? [{ text: payload.content }] : records(payload.content);
  return parts.map((part) => {
    const text = str(part.text);
    if (text === undefined || text.trim() === '') return undefined;
    if (role === 'assistant') return { role: 'assistant', kind: 'text', origin: 'assistant', text };
    const c = codexUserText(text, role === 'user' ? 'user' : 'developer');
    return { role: role === 'user' ? 'user' : 'system', kind: 'text', origin: c.origin, text: c.text, ...(INJECTED.has(c.origin) && { meta: true }) };
  });
}

const ENVELOPES = new Set(['session_meta', 'response_item', 'event_msg', 'turn_context', 'compacted']);
const ITEMS = new Set([
  'function_call',
  'function_call_output',
  'custom_tool_call',
  'custom_tool_call_output',
  'local_shell_call',
  'web_search_call',
  'reasoning',
]);

/** A Codex rollout line: an envelope with a payload, or an older rollout's state line, header or bare response item. */
export function detect(line: JsonRecord): boolean {
  const type = line.type;
  if (typeof type === 'string' && 'payload' in line && ENVELOPES.has(type)) return true;
  if (str(line.sessionId) ?? str(line.uuid) ?? str(line.leafUuid)) return false; // Claude Code's
  if ('record_type' in line) return true;
  if (type === undefined && line.role === undefined && str(line.id) && 'timestamp' in line) return true;
  if (typeof type === 'string' && ITEMS.has(type)) return true;
  return type === 'message' && records(line.content).some((p) => p.type === 'input_text' || p.type === 'output_text');
}

export function createCodexParser(): LineParser {
  const session: SessionInfo = {};
  const tools = new PendingTools();
  /** Commands still running in a unified-exec session, by session id: write_stdin results report their end. */
  const running = new Map<string, string>();
  let cwd: string | undefined;
  let pendingPlan: TranscriptMessage | undefined;

  function enter(sessionId: string | undefined, dir: string | undefined): void {
    session.sessionId ??= sessionId;
    session.cwd ??= dir;
    cwd = dir ?? cwd;
  }

  function output(payload: JsonRecord): Item[] {
    const unwrapped = unwrapOutput(payload.output);
    // Codex states how every command it ran ended: a result without an exit status is no finished run.
    const { message, call } = toolResult(unwrapped.output, str(payload.call_id), tools, (unwrapped.exitCode ?? 0) !== 0, false);
    let result: Item = unwrapped.exitCode === undefined ? message : { ...message, exitCode: unwrapped.exitCode };
    const sessionId = /^Process running with session ID (\d+)/m.exec(message.text.slice(0, 400))?.[1];
    if (sessionId !== undefined && message.command !== undefined) running.set(sessionId, message.command);
    const stdin = call?.name === 'write_stdin' && isRecord(call.input) ? String(call.input.session_id ?? '') : undefined;
    const command = stdin === undefined ? undefined : running.get(stdin);
    if (stdin !== undefined && command !== undefined) {
      const exitCode = statedExitCode(message.text);
      if (exitCode !== undefined) {
        running.delete(stdin);
        result = { ...result, command, exitCode, ...(exitCode !== 0 && { isError: true }) };
      }
    }
    return [result, ...instructionMessages(call, result.isError === true)];
  }

  function responseItem(payload: JsonRecord): (Item | undefined)[] {
    switch (payload.type) {
      case 'message':
        return messageParts(payload);
      case 'function_call': {
        const args = typeof payload.arguments === 'string' ? (parseJson(payload.arguments) ?? payload.arguments) : payload.arguments;
        return [toolUse(str(payload.name) ?? 'function', args ?? {}, str(payload.call_id), tools)];
      }
      case 'custom_tool_call':
        return [toolUse(str(payload.name) ?? 'tool', payload.input ?? '', str(payload.call_id), tools)];
      case 'local_shell_call':
        return [toolUse('local_shell', payload.action ?? {}, str(payload.call_id), tools)];
      case 'web_search_call':
        return [toolUse('web_search', payload.action ?? {}, undefined, tools)];
      case 'function_call_output':
      case 'custom_tool_call_output':
        return output(payload);
      case 'reasoning': {
        // The summary is what Codex shows; raw reasoning content is rarely persisted.
        const text = contentText(payload.summary) || contentText(payload.content);
        return [text.trim() === '' ? undefined : { role: 'assistant', kind: 'thinking', origin: 'assistant', text }];
      }
      default:
        return [];
    }
  }

  function items(line: JsonRecord): (Item | undefined)[] {
    const payload = isRecord(line.payload) ? line.payload : {};
    switch (line.type) {
      case 'session_meta':
        enter(str(payload.id), str(payload.cwd));
        return [];
      case 'turn_context':
        enter(undefined, str(payload.cwd));
        return [];
      case 'response_item':
        return responseItem(payload);
      case 'compacted': {
        // Newer rollouts keep the summary encrypted (replacement_history); only a plain message is readable.
        const text = str(payload.message);
        return text === undefined || text.trim() === '' ? [] : [{ role: 'user', kind: 'summary', origin: 'summary', text, compactSummary: true }];
      }
      case 'event_msg':
        return [];
      case undefined:
        // Old rollout header: `{id, timestamp, instructions}`.
        if (!('role' in line) && str(line.id) !== undefined) enter(str(line.id), undefined);
        return [];
      default:
        // Old rollouts: a bare response item (its `type` is the item type).
        return 'payload' in line ? [] : responseItem(line);
    }
  }

  /** A `<proposed_plan>` waits for the person's next prompt: "Implement the plan." approves it. */
  function withPlans(message: TranscriptMessage): TranscriptMessage[] {
    if (message.origin === 'typed' && pendingPlan !== undefined) {
      const plan: TranscriptMessage = { ...pendingPlan, plan: IMPLEMENT_PLAN.test(message.text) ? 'approved' : 'pending' };
      pendingPlan = undefined;
      return [plan, message];
    }
    if (message.origin !== 'assistant' || message.kind !== 'text') return [message];
    const m = PROPOSED_PLAN.exec(message.text);
    if (m?.[1] === undefined || m[1].trim() === '') return [message];
    const rest = message.text.replace(PROPOSED_PLAN, '').trim();
    const held = pendingPlan;
    pendingPlan = { ...message, id: rest === '' ? message.id : `${message.id}:plan`, origin: 'plan', text: m[1].trim(), plan: 'pending' };
    const out = held === undefined ? [] : [held];
    return rest === '' ? out : [...out, { ...message, text: rest }];
  }

  return {
    session,
    parse(line, fallbackId) {
      const found = items(line);
      if (found.length === 0) return [];
      const time = timestamp(line.timestamp);
      const out: TranscriptMessage[] = [];
      found.forEach((item, index) => {
        if (item === undefined) return;
        const message: TranscriptMessage = {
          id: blockId(fallbackId, index),
          ...item,
          ...(time !== undefined && { timestamp: time }),
          ...(session.sessionId !== undefined && { sessionId: session.sessionId }),
          ...(cwd !== undefined && { cwd }),
        };
        out.push(...withPlans(message));
      });
      return out;
    },
    finish() {
      const held = pendingPlan;
      pendingPlan = undefined;
      return held === undefined ? [] : [held];
    },
  };
}
