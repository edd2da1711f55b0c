/**
 * The transcript as the model reads it: one entry per message, prefixed with its id so answers can
 * cite it. Tool output is evidence, never a memory: clipped to a short preview first. Entries are
 * split into chunks at message boundaries when the whole does not fit the window.
 */
import { charsForTokens, estimateTokens } from '../../llm/tokens.js';
import type { ExtractMessage } from './types.js';

/** A tool result keeps this many characters: the head and a shorter tail (errors end there). */
export const TOOL_RESULT_CHARS = 300;
const TOOL_CALL_CHARS = 200;

export interface RenderedMessage {
  id: string;
  /** Position in the input: later is newer. */
  index: number;
  timestamp?: string;
  text: string;
  tokens: number;
}

function oneLine(s: string): string {
  return s.replace(/\s+/g, ' ').trim();
}

export function trimToolOutput(s: string, max = TOOL_RESULT_CHARS): string {
  const flat = oneLine(s);
  if (flat.length <= max) return flat;
  const head = Math.round(max * (2 / 3));
  const tail = max - head;
  return `${flat.slice(0, head)} [… ${flat.length - max} chars of tool output trimmed] ${flat.slice(flat.length - tail)}`;
}

/** Who wrote it, as the model should weigh it: only the person's own words are instructions. */
const ORIGIN_LABEL: Partial<Record<NonNullable<ExtractMessage['origin']>, string>> = {
  queued: 'user (typed while the agent worked)',
  answer: "user's answer to the agent's question",
  feedback: 'user (rejecting a plan)',
  agent: 'parent agent (briefing a subagent; not the user)',
  command: 'slash command (not the user)',
  interrupt: 'interruption notice',
  instructions: 'project instruction file',
  system: 'injected context (not the user)',
};

function label(m: ExtractMessage): string | undefined {
  const who = m.sidechain ? `subagent ${m.role}` : m.role;
  if (m.origin === 'plan')
    return m.plan === 'approved' ? 'plan the user approved' : m.plan === 'rejected' ? 'plan the user rejected' : 'plan proposed by the agent';
  const byOrigin = m.kind === 'text' && m.origin !== undefined ? ORIGIN_LABEL[m.origin] : undefined;
  if (byOrigin !== undefined) return byOrigin;
  switch (m.kind) {
    case 'text':
      return m.speaker ? `${who} (${oneLine(m.speaker).slice(0, 40)})` : who;
    case 'tool_use':
      return `${who} called tool`;
    case 'tool_result':
      return `tool result${m.toolName ? ` of ${m.toolName}` : ''}${m.isError ? ' (error)' : ''}`;
    case 'summary':
      return 'summary of the earlier conversation';
    default:
      // thinking and compaction boundaries carry nothing to remember.
      return undefined;
  }
}

function body(m: ExtractMessage): string {
  if (m.kind === 'tool_result') return trimToolOutput(m.text);
  if (m.kind === 'tool_use') return oneLine(m.text).slice(0, TOOL_CALL_CHARS);
  // Indent continuation lines so a line of the text never looks like a new message.
  return m.text.trim().replace(/\n/g, '\n  ');
}

export function renderMessage(m: ExtractMessage, index: number): RenderedMessage | undefined {
  if (m.meta) return undefined;
  const l = label(m);
  if (!l || !m.text.trim()) return undefined;
  const text = `[${m.id}] ${l}: ${body(m)}`;
  return { id: m.id, index, ...(m.timestamp ? { timestamp: m.timestamp } : {}), text, tokens: estimateTokens(text) + 1 };
}

export function renderTranscript(messages: ExtractMessage[]): RenderedMessage[] {
  const out: RenderedMessage[] = [];
  messages.forEach((m, i) => {
    const r = renderMessage(m, i);
    if (r) out.push(r);
  });
  return out;
}

/** A message that alone exceeds the budget keeps its head, so the chunk still fits. */
function clip(r: RenderedMessage, budgetTokens: number): RenderedMessage {
  if (r.tokens <= budgetTokens) return r;
  const keep = Math.max(0, charsForTokens(budgetTokens) - 64);
  const text = `${r.text.slice(0, keep)} [… ${r.text.length - keep} chars trimmed]`;
  return { ...r, text, tokens: estimateTokens(text) + 1 };
}

/** Consecutive runs of messages, each at most `budgetTokens` (estimated), in order. */
export function chunkMessages(rendered: RenderedMessage[], budgetTokens: number): RenderedMessage[][] {
  const chunks: RenderedMessage[][] = [];
  let current: RenderedMessage[] = [];
  let used = 0;
  for (const raw of rendered) {
    const r = clip(raw, budgetTokens);
    if (current.length > 0 && used + r.tokens > budgetTokens) {
      chunks.push(current);
      current = [];
      used = 0;
    }
    current.push(r);
    used += r.tokens;
  }
  if (current.length > 0) chunks.push(current);
  return chunks;
}

export function chunkText(chunk: RenderedMessage[]): string {
  return chunk.map((r) => r.text).join('\n');
}
