/**
 * Reading and rewriting tool results in a history. Every tier works on the same view: each
 * tool_result with the tool_use that asked for it, its position, its turn, its size. Cleared results
 * keep their tool_use_id and get a placeholder that starts with PLACEHOLDER_PREFIX, so a tier can
 * tell them apart and the model still sees what it called.
 */
import type { ContentBlockParam, MessageParam, ToolResultBlockParam } from '@anthropic-ai/sdk/resources/messages';
import { blockTokens } from './token-count.js';

export const PLACEHOLDER_PREFIX = '[context: ';

export interface ToolCall {
  id: string;
  name: string;
  input: unknown;
  /** Index of the assistant message holding the tool_use. */
  msgIndex: number;
  /** Ordinal of that assistant message (0 = first model turn). */
  turn: number;
}

export interface ToolResultRef {
  msgIndex: number;
  blockIndex: number;
  block: ToolResultBlockParam;
  call: ToolCall | undefined;
  turn: number;
  tokens: number;
  cleared: boolean;
}

export const contentBlocks = (m: MessageParam): ContentBlockParam[] => (typeof m.content === 'string' ? [] : m.content);

export function toolCalls(messages: readonly MessageParam[]): Map<string, ToolCall> {
  const calls = new Map<string, ToolCall>();
  let turn = -1;
  messages.forEach((m, msgIndex) => {
    if (m.role !== 'assistant') return;
    turn++;
    for (const b of contentBlocks(m)) {
      if (b.type === 'tool_use') calls.set(b.id, { id: b.id, name: b.name, input: b.input, msgIndex, turn });
    }
  });
  return calls;
}

/** The text of a tool result (text parts joined; images and documents left out). */
export function resultText(block: ToolResultBlockParam): string {
  const c = block.content;
  if (c === undefined) return '';
  if (typeof c === 'string') return c;
  return c.map((p) => (p.type === 'text' ? p.text : '')).join('\n');
}

export const isPlaceholder = (text: string): boolean => text.startsWith(PLACEHOLDER_PREFIX);

/** Every tool result, oldest first. */
export function toolResults(messages: readonly MessageParam[]): ToolResultRef[] {
  const calls = toolCalls(messages);
  const out: ToolResultRef[] = [];
  let turn = 0;
  messages.forEach((m, msgIndex) => {
    if (m.role === 'assistant') turn++;
    contentBlocks(m).forEach((b, blockIndex) => {
      if (b.type !== 'tool_result') return;
      const call = calls.get(b.tool_use_id);
      out.push({ msgIndex, blockIndex, block: b, call, turn: call?.turn ?? turn - 1, tokens: blockTokens(b), cleared: isPlaceholder(resultText(b)) });
    });
  });
  return out;
}

/** Replaces a result's content with `text`; returns the estimated tokens freed. */
export function replaceResult(block: ToolResultBlockParam, text: string): number {
  const before = blockTokens(block);
  block.content = text;
  return Math.max(0, before - blockTokens(block));
}

/** The placeholder a cleared result gets: what was called and why it is gone. */
export function placeholder(call: ToolCall | undefined, why: string, tokens: number): string {
  const what = call ? `${call.name} ${briefInput(call.input)}`.trim() : 'tool result';
  return `${PLACEHOLDER_PREFIX}${why}: ${what} (~${tokens} tokens). Call the tool again if you need it.]`;
}

/** One line naming the input: its path/pattern/command if it has one, else compact JSON. */
export function briefInput(input: unknown): string {
  if (input && typeof input === 'object') {
    const o = input as Record<string, unknown>;
    for (const k of ['path', 'file_path', 'filePath', 'file', 'pattern', 'query', 'command', 'url']) {
      const v = o[k];
      if (typeof v === 'string') return clip(v, 120);
    }
  }
  const json = JSON.stringify(input ?? {}) ?? '';
  return clip(json, 120);
}

const clip = (s: string, n: number): string => (s.length > n ? `${s.slice(0, n)}…` : s);

/**
 * Where the current turn starts: the last message, plus the assistant message before it when the
 * last one carries its tool results. Tiers never touch what lies at or after this index.
 */
export function currentTurnStart(messages: readonly MessageParam[]): number {
  const n = messages.length;
  const last = messages[n - 1];
  if (!last) return 0;
  if (last.role === 'user' && contentBlocks(last).some((b) => b.type === 'tool_result') && messages[n - 2]?.role === 'assistant') return n - 2;
  return n - 1;
}

/** Cuts each text part of a result over `cap` characters to head + tail; returns tokens freed (0: unchanged). */
export function capResult(block: ToolResultBlockParam, cap: number, label: string): number {
  const before = blockTokens(block);
  const c = block.content;
  if (typeof c === 'string') {
    if (c.length > cap) block.content = headTail(c, cap, label);
  } else if (c) {
    for (const part of c) if (part.type === 'text' && part.text.length > cap) part.text = headTail(part.text, cap, label);
  }
  return Math.max(0, before - blockTokens(block));
}

/** Head and tail of `text` around a marker, at most `maxChars` long in all. */
export function headTail(text: string, maxChars: number, label: string): string {
  if (text.length <= maxChars) return text;
  const marker = (cut: number) => `\n\n[... ${label}: ${cut} chars cut from the middle ...]\n\n`;
  const keep = Math.max(0, Math.floor((maxChars - marker(text.length).length) / 2));
  return text.slice(0, keep) + marker(text.length - keep * 2) + text.slice(text.length - keep);
}
