/**
 * Per-component accounting: how much of the window each part of a request takes (system prompt,
 * tool definitions, history, tool results, injected memories, output reserve), against a hard limit
 * per component and a soft one at 80 % of it. Tracked for every request so the log shows which part
 * is growing; enforced only where the manager owns the content (tool results are evicted, memories
 * cut), since the loop owns its system prompt and tools.
 */
import type { MessageParam, ToolUnion } from '@anthropic-ai/sdk/resources/messages';
import { CHARS_PER_TOKEN, estimateSystemTokens, estimateToolsTokens, estimateTokens } from '../../llm/tokens.js';
import { toolResults } from './blocks.js';
import { messagesTokens } from './token-count.js';
import type { ComponentName, ContextEventInput, SystemPrompt } from './types.js';

export interface ComponentLimit {
  /** Hard limit as a fraction of the context window. */
  hard: number;
  /** Soft limit as a fraction of the hard one. */
  soft: number;
}

export type ComponentLimits = Record<ComponentName, ComponentLimit>;

export const COMPONENT_NAMES: readonly ComponentName[] = ['systemPrompt', 'toolDefinitions', 'history', 'toolResults', 'memories', 'outputReserve'];

/**
 * Coding agents spend far more on tool output than the 12 % a chat assistant would budget, so
 * history and tool results get half the window each; the 0.85 compaction trigger bounds their sum.
 */
export const DEFAULT_COMPONENT_LIMITS: ComponentLimits = {
  systemPrompt: { hard: 0.1, soft: 0.8 },
  toolDefinitions: { hard: 0.1, soft: 0.8 },
  history: { hard: 0.5, soft: 0.8 },
  toolResults: { hard: 0.5, soft: 0.8 },
  memories: { hard: 0.08, soft: 0.8 },
  outputReserve: { hard: 0.5, soft: 0.8 },
};

export type ComponentStatus = 'ok' | 'soft' | 'hard';

export interface ComponentUsage {
  tokens: number;
  soft: number;
  hard: number;
  status: ComponentStatus;
}

export interface ComponentInput {
  system?: SystemPrompt;
  tools?: ToolUnion[];
  memories?: string;
  messages: readonly MessageParam[];
  maxOutputTokens: number;
}

export function limitTokens(limit: ComponentLimit, contextWindow: number): { soft: number; hard: number } {
  const hard = Math.floor(limit.hard * contextWindow);
  return { hard, soft: Math.floor(hard * limit.soft) };
}

export function measureComponents(input: ComponentInput, contextWindow: number, limits: ComponentLimits): Record<ComponentName, ComponentUsage> {
  const results = toolResults(input.messages).reduce((n, r) => n + r.tokens, 0);
  const tokens: Record<ComponentName, number> = {
    systemPrompt: estimateSystemTokens(input.system),
    toolDefinitions: estimateToolsTokens(input.tools),
    history: Math.max(0, messagesTokens(input.messages) - results),
    toolResults: results,
    memories: input.memories ? estimateTokens(input.memories) : 0,
    outputReserve: input.maxOutputTokens,
  };
  const out = {} as Record<ComponentName, ComponentUsage>;
  for (const name of COMPONENT_NAMES) {
    const { soft, hard } = limitTokens(limits[name], contextWindow);
    const t = tokens[name];
    out[name] = { tokens: t, soft, hard, status: t >= hard ? 'hard' : t >= soft ? 'soft' : 'ok' };
  }
  return out;
}

/** Events for components that crossed into soft or hard since the last check (`seen` is updated). */
export function limitCrossings(usage: Record<ComponentName, ComponentUsage>, seen: Map<ComponentName, ComponentStatus>): ContextEventInput[] {
  const out: ContextEventInput[] = [];
  for (const name of COMPONENT_NAMES) {
    const u = usage[name];
    if (u.status !== 'ok' && u.status !== seen.get(name)) {
      out.push({ type: 'component_limit', component: name, level: u.status, tokens: u.tokens, limit: u.status === 'hard' ? u.hard : u.soft });
    }
    seen.set(name, u.status);
  }
  return out;
}

/** The memory block, cut at a line end to `maxTokens` (the memories component's hard limit). */
export function memoryBlock(memories: string, maxTokens: number): string {
  const cap = maxTokens * CHARS_PER_TOKEN;
  const text = memories.length > cap ? memories.slice(0, memories.lastIndexOf('\n', cap) + 1 || cap) : memories;
  return `<memories>\n${text.trimEnd()}\n</memories>`;
}

/** `system` with `block` appended (as a separate text block when the system prompt is blocks). */
export function withBlock(system: SystemPrompt | undefined, block: string | undefined): SystemPrompt | undefined {
  if (!block) return system;
  if (system === undefined) return block;
  return typeof system === 'string' ? `${system}\n\n${block}` : [...system, { type: 'text', text: block }];
}
