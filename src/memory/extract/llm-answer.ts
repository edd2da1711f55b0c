/**
 * The model's answer → candidates. The record_memories tool input is the primary shape; JSON in a
 * text answer (fenced, wrapped in prose, a bare array) is accepted too. Each memory is validated on
 * its own: a bad one is dropped, the rest kept.
 */
import type { Message } from '@anthropic-ai/sdk/resources/messages';
import { z } from 'zod';
import { MEMORY_TYPES, type MemoryType } from '../../api/memory.js';
import { parseStructured, validateStructured, type StructuredErrorCode } from '../../llm/structured.js';
import { RECORD_TOOL_NAME } from './llm-prompt.js';
import type { RenderedMessage } from './llm-render.js';
import type { Proposal as Candidate } from './types.js';

const Answer = z.object({ memories: z.array(z.unknown()) });

const RawMemory = z.object({
  content: z.string().trim().min(1).max(1000),
  type: z.unknown().optional(),
  scope: z.unknown().optional(),
  stable: z.unknown().optional(),
  importance: z.unknown().optional(),
  messageIds: z.unknown().optional(),
  message_ids: z.unknown().optional(),
  replaces: z.unknown().optional(),
});

export type AnswerError = { code: StructuredErrorCode | 'refusal'; message: string };
export type AnswerItems = { ok: true; items: unknown[] } | { ok: false; error: AnswerError };

/** The list of raw memories in a model message, wherever it put it. */
export function answerItems(message: Pick<Message, 'content' | 'stop_reason'>): AnswerItems {
  // A model that misnames the tool still means it.
  const tool = message.content.find((b) => b.type === 'tool_use' && b.name === RECORD_TOOL_NAME) ?? message.content.find((b) => b.type === 'tool_use');
  if (tool && tool.type === 'tool_use') {
    const r =
      typeof tool.input === 'string'
        ? parseStructured(tool.input, Answer, { arrayKey: 'memories' })
        : validateStructured(tool.input, Answer, { arrayKey: 'memories' });
    return r.ok ? { ok: true, items: r.value.memories } : { ok: false, error: r.error };
  }
  const text = message.content.map((b) => (b.type === 'text' ? b.text : '')).join('\n');
  if (message.stop_reason === 'refusal' && !text.trim()) return { ok: false, error: { code: 'refusal', message: 'the model declined to answer' } };
  const r = parseStructured(text, Answer, { arrayKey: 'memories' });
  return r.ok ? { ok: true, items: r.value.memories } : { ok: false, error: r.error };
}

function asStrings(v: unknown): string[] {
  const list = Array.isArray(v) ? v : v === undefined || v === null ? [] : [v];
  return list.filter((x): x is string | number => typeof x === 'string' || typeof x === 'number').map((x) => String(x).trim());
}

function memoryType(v: unknown): MemoryType {
  const t = typeof v === 'string' ? v.trim().toLowerCase() : '';
  return (MEMORY_TYPES as readonly string[]).includes(t) ? (t as MemoryType) : 'note';
}

function importance(v: unknown): number {
  const n = typeof v === 'number' ? v : typeof v === 'string' ? Number.parseFloat(v) : Number.NaN;
  if (!Number.isFinite(n)) return 0.5;
  return Math.min(1, Math.max(0, n));
}

function stable(v: unknown): boolean {
  if (typeof v === 'boolean') return v;
  if (typeof v === 'string') return v.trim().toLowerCase() !== 'false';
  return true;
}

export interface CandidateContext {
  /** Messages of the chunk the answer is about, by id. */
  messages: Map<string, RenderedMessage>;
  project?: string;
}

/** One raw memory → a candidate, or undefined when it is not usable. */
export function toCandidate(raw: unknown, ctx: CandidateContext): Candidate | undefined {
  const parsed = RawMemory.safeParse(raw);
  if (!parsed.success) return undefined;
  const m = parsed.data;
  const cited = asStrings(m.messageIds ?? m.message_ids)
    .map((id) => id.replace(/^\[|\]$/g, ''))
    .map((id) => ctx.messages.get(id))
    .filter((r): r is RenderedMessage => r !== undefined);
  const ids = [...new Set(cited.map((r) => r.id))];
  const latest = cited.filter((r) => r.timestamp).sort((a, b) => b.index - a.index)[0];
  const scopeRaw = typeof m.scope === 'string' ? m.scope.trim().toLowerCase() : '';
  const scope = scopeRaw === 'user' || scopeRaw === 'project' ? scopeRaw : ctx.project ? 'project' : 'user';
  const replaces = asStrings(m.replaces)
    .filter((s) => s.length > 0 && s.length <= 200)
    .slice(0, 10);
  return {
    content: m.content.replace(/\s+/g, ' '),
    type: memoryType(m.type),
    scope,
    stable: stable(m.stable),
    importance: importance(m.importance),
    messageIds: ids,
    ...(latest?.timestamp ? { at: latest.timestamp } : {}),
    ...(replaces.length > 0 ? { replaces } : {}),
  };
}

function dedupeKey(content: string): string {
  return content
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/** Same content (case and punctuation aside) merged; the `max` most important kept. */
export function mergeCandidates(lists: Candidate[][], max: number): Candidate[] {
  const byKey = new Map<string, Candidate>();
  for (const c of lists.flat()) {
    const key = dedupeKey(c.content);
    const seen = byKey.get(key);
    if (!seen) {
      byKey.set(key, { ...c, messageIds: [...c.messageIds] });
      continue;
    }
    seen.messageIds = [...new Set([...seen.messageIds, ...c.messageIds])];
    seen.importance = Math.max(seen.importance, c.importance);
    if (c.at) seen.at = c.at;
    if (c.replaces) seen.replaces = [...new Set([...(seen.replaces ?? []), ...c.replaces])];
  }
  return [...byKey.values()].sort((a, b) => b.importance - a.importance).slice(0, Math.max(0, max));
}
