/**
 * What the Messages API requires of a history, checked before every request and repaired in the
 * stored history (not just the copy sent), so one bad turn does not fail every later request:
 * every tool_use has its tool_result in the next message and every tool_result its tool_use in the
 * previous one (results first in that message), roles alternate starting with the user, and no
 * message or text block is empty. Repairs keep message objects in place where they can, so callers
 * can keep their own bookkeeping keyed on them.
 */
import type { ContentBlockParam, MessageParam, ToolResultBlockParam } from '@anthropic-ai/sdk/resources/messages';
import { PLACEHOLDER_PREFIX } from './blocks.js';

export type ViolationKind =
  'empty_content' | 'first_not_user' | 'roles_not_alternating' | 'missing_tool_result' | 'orphan_tool_result' | 'duplicate_tool_result' | 'results_not_first';

export interface Violation {
  kind: ViolationKind;
  index: number;
  detail: string;
}

export const describeViolation = (v: Violation): string => `${v.kind} at message ${v.index}: ${v.detail}`;

const blocksOf = (m: MessageParam): ContentBlockParam[] => (typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : m.content);
const toolUseIds = (m: MessageParam | undefined): string[] =>
  m?.role === 'assistant' && typeof m.content !== 'string' ? m.content.flatMap((b) => (b.type === 'tool_use' ? [b.id] : [])) : [];
const blankText = (b: ContentBlockParam): boolean => b.type === 'text' && b.text.trim() === '';
const isEmpty = (m: MessageParam): boolean => (typeof m.content === 'string' ? m.content.trim() === '' : m.content.length === 0 || m.content.some(blankText));

export const INTERRUPTED_RESULT = `${PLACEHOLDER_PREFIX}no result was recorded for this call (interrupted or lost); run it again if it is still needed]`;

export function checkInvariants(messages: readonly MessageParam[]): Violation[] {
  const v: Violation[] = [];
  messages.forEach((m, index) => {
    const prev = messages[index - 1];
    if (isEmpty(m)) v.push({ kind: 'empty_content', index, detail: 'empty message or text block' });
    if (index === 0 && m.role !== 'user') v.push({ kind: 'first_not_user', index, detail: `starts with ${m.role}` });
    if (prev && prev.role === m.role) v.push({ kind: 'roles_not_alternating', index, detail: `two ${m.role} messages in a row` });
    const next = messages[index + 1];
    const answered = new Set(next?.role === 'user' ? blocksOf(next).flatMap((b) => (b.type === 'tool_result' ? [b.tool_use_id] : [])) : []);
    for (const id of toolUseIds(m)) if (!answered.has(id)) v.push({ kind: 'missing_tool_result', index, detail: `tool_use ${id} has no tool_result` });
    if (m.role !== 'user') return;
    const allowed = new Set(toolUseIds(prev));
    const seen = new Set<string>();
    let textSeen = false;
    for (const b of blocksOf(m)) {
      if (b.type !== 'tool_result') {
        textSeen = true;
        continue;
      }
      if (!allowed.has(b.tool_use_id)) v.push({ kind: 'orphan_tool_result', index, detail: `tool_result ${b.tool_use_id} has no tool_use` });
      else if (seen.has(b.tool_use_id)) v.push({ kind: 'duplicate_tool_result', index, detail: `tool_result ${b.tool_use_id} twice` });
      if (textSeen) v.push({ kind: 'results_not_first', index, detail: `tool_result ${b.tool_use_id} after other content` });
      seen.add(b.tool_use_id);
    }
  });
  return v;
}

function dropEmpty(msgs: MessageParam[], repairs: Violation[]): MessageParam[] {
  return msgs.filter((m, index) => {
    if (typeof m.content !== 'string' && m.content.some(blankText)) {
      m.content = m.content.filter((b) => !blankText(b));
      repairs.push({ kind: 'empty_content', index, detail: 'removed empty text blocks' });
    }
    if (!isEmpty(m)) return true;
    repairs.push({ kind: 'empty_content', index, detail: `removed an empty ${m.role} message` });
    return false;
  });
}

function mergeSameRole(msgs: MessageParam[], repairs: Violation[]): MessageParam[] {
  const out: MessageParam[] = [];
  for (const m of msgs) {
    const last = out[out.length - 1];
    if (last && last.role === m.role) {
      last.content = [...blocksOf(last), ...blocksOf(m)];
      repairs.push({ kind: 'roles_not_alternating', index: out.length, detail: `merged two ${m.role} messages` });
    } else out.push(m);
  }
  if (out[0] && out[0].role !== 'user') {
    out.unshift({ role: 'user', content: `${PLACEHOLDER_PREFIX}the conversation continues from here]` });
    repairs.push({ kind: 'first_not_user', index: 0, detail: 'inserted a user message before the first assistant message' });
  }
  return out;
}

/** Keeps only results answering `allowed`, once each, adds missing ones, puts them first. */
function fixResults(m: MessageParam, allowed: string[], index: number, repairs: Violation[]): void {
  if (typeof m.content === 'string' && allowed.length === 0) return;
  const blocks = blocksOf(m);
  const byId = new Map<string, ToolResultBlockParam>();
  const others: ContentBlockParam[] = [];
  let misplaced = false;
  for (const b of blocks) {
    if (b.type !== 'tool_result') {
      others.push(b);
      continue;
    }
    if (others.length > 0) misplaced = true;
    if (!allowed.includes(b.tool_use_id)) repairs.push({ kind: 'orphan_tool_result', index, detail: `removed tool_result ${b.tool_use_id}` });
    else if (byId.has(b.tool_use_id)) repairs.push({ kind: 'duplicate_tool_result', index, detail: `removed a second tool_result ${b.tool_use_id}` });
    else byId.set(b.tool_use_id, b);
  }
  const results = allowed.map((id) => {
    const found = byId.get(id);
    if (found) return found;
    repairs.push({ kind: 'missing_tool_result', index, detail: `added a result for tool_use ${id}` });
    return { type: 'tool_result', tool_use_id: id, is_error: true, content: INTERRUPTED_RESULT } satisfies ToolResultBlockParam;
  });
  const next = [...results, ...others];
  if (misplaced) repairs.push({ kind: 'results_not_first', index, detail: 'moved tool results before other content' });
  if (next.length !== blocks.length || next.some((b, i) => b !== blocks[i])) m.content = next;
}

function pairTools(msgs: MessageParam[], repairs: Violation[]): MessageParam[] {
  const out: MessageParam[] = [];
  msgs.forEach((m, i) => {
    if (m.role === 'user') fixResults(m, toolUseIds(out[out.length - 1]), out.length, repairs);
    out.push(m);
    const ids = toolUseIds(m);
    if (ids.length > 0 && msgs[i + 1]?.role !== 'user') {
      const filler: MessageParam = { role: 'user', content: [] };
      fixResults(filler, ids, out.length, repairs);
      out.push(filler);
    }
  });
  return out;
}

/** A history satisfying checkInvariants, and what was changed to get it. */
export function repairInvariants(messages: readonly MessageParam[]): { messages: MessageParam[]; repairs: Violation[] } {
  const repairs: Violation[] = [];
  let out = [...messages];
  // A repair can expose another (a user message emptied of orphans, then two assistants in a row).
  for (let pass = 0; pass < 5 && checkInvariants(out).length > 0; pass++) {
    out = pairTools(mergeSameRole(dropEmpty(out, repairs), repairs), repairs);
  }
  return { messages: out, repairs };
}
