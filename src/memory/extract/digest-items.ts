/**
 * What the model reads of a session instead of its transcript: the person's own statements, found
 * by the same units the heuristics weigh (units.ts) — typed and queued messages, answers to the
 * agent's questions, approved plans, reasons for rejecting one, the lasting sections of compaction
 * summaries, instruction files written at their request — one entry per message, prefixed with its
 * id so answers can cite it. The agent's prose and tool output are left out (the heuristics' verified
 * learnings from them come along as candidates, see digest-prompt.ts).
 */
import { estimateTokens } from '../../llm/tokens.js';
import type { RenderedMessage } from './llm-render.js';
import type { ExtractMessage } from './types.js';
import { unitsOf } from '../candidates/collect.js';
import type { Unit, UnitSource } from '../candidates/unit.js';

/** One message's statements keep at most this many characters. */
export const ITEM_CHARS = 1500;

/** Summary sections about the moment (files touched, current work, next step) say nothing lasting. */
const MOMENTARY = new Set<UnitSource>(['summary-files', 'summary-current', 'summary-next', 'summary-pending']);

function labelOf(source: UnitSource): string | undefined {
  if (source === 'assistant' || MOMENTARY.has(source)) return undefined;
  if (source === 'typed' || source === 'url') return 'user';
  if (source === 'feedback') return 'user, rejecting a plan';
  if (source === 'answer') return "user's answer to the agent's question";
  if (source === 'plan' || source === 'plan-body') return 'plan the user approved';
  if (source === 'instructions') return "instruction file written at the user's request";
  return `summary of earlier conversation (${source.slice('summary-'.length)})`;
}

function clip(s: string): string {
  return s.length <= ITEM_CHARS ? s : `${s.slice(0, ITEM_CHARS)} […]`;
}

/** The person's statements, one entry per message (and label), in transcript order. */
export function digestItems(messages: readonly ExtractMessage[]): RenderedMessage[] {
  const index = new Map(messages.map((m, i) => [m.id, i]));
  const groups = new Map<string, { label: string; units: Unit[] }>();
  for (const u of unitsOf(messages)) {
    const label = labelOf(u.source);
    if (label === undefined) continue;
    const key = `${u.messageId}\u0000${label}`;
    const g = groups.get(key);
    if (g) g.units.push(u);
    else groups.set(key, { label, units: [u] });
  }
  const out: RenderedMessage[] = [];
  for (const { label, units } of groups.values()) {
    const first = units[0];
    if (first === undefined) continue;
    const body = units.map((u) => (u.bullet ? `- ${u.text}` : u.text)).join(' ');
    const text = `[${first.messageId}] ${label}: ${clip(body.replace(/\s+/g, ' ').trim())}`;
    const at = units.map((u) => u.at).find((a) => a !== undefined);
    out.push({
      id: first.messageId,
      index: index.get(first.messageId) ?? 0,
      ...(at !== undefined && { timestamp: at }),
      text,
      tokens: estimateTokens(text) + 1,
    });
  }
  return out.sort((a, b) => a.index - b.index);
}
