/**
 * What to clear first when the context must shrink without a model call: a pluggable scorer over
 * the blocks of the history (lower score = cleared first). The engine, not the policy, guarantees
 * what is never touched: the system prompt (not in the history at all), the original task statement
 * and the compaction summary (pinned messages) and the current turn.
 *
 * - typeAgePolicy (default): by type, then age. Old tool results go first, then large tool inputs,
 *   then old assistant text, then old user text.
 * - hybridPolicy: recency and reference. A block the later conversation still mentions (its path or
 *   pattern appears in later assistant text or tool inputs) is kept over an unreferenced newer one.
 */
import type { ContentBlockParam, MessageParam } from '@anthropic-ai/sdk/resources/messages';
import { estimateTokens } from '../../llm/tokens.js';
import { blockTokens } from './token-count.js';
import { PLACEHOLDER_PREFIX, briefInput, contentBlocks, isPlaceholder, placeholder, replaceResult, resultText, toolCalls, type ToolCall } from './blocks.js';
import { noChange, type TierReport } from './types.js';

export type BlockKind = 'tool_result' | 'tool_use' | 'assistant_text' | 'user_text';

export interface ContextBlock {
  kind: BlockKind;
  msgIndex: number;
  /** -1: the message's content is a string. */
  blockIndex: number;
  tokens: number;
  /** Model turns since the block's turn (0 = the newest turn). */
  age: number;
  call?: ToolCall;
  /** Later messages mentioning the block's path/pattern, and the age of the newest mention. */
  references: number;
  lastReferenceAge?: number;
}

export interface EvictionPolicy {
  name: string;
  /** Lower is cleared first. */
  score(block: ContextBlock): number;
}

const TYPE_WEIGHT: Record<BlockKind, number> = { tool_result: 0, tool_use: 1, assistant_text: 2, user_text: 3 };

export const typeAgePolicy: EvictionPolicy = {
  name: 'type-age',
  score: (b) => TYPE_WEIGHT[b.kind] + 1 / (1 + b.age), // in (weight, weight + 1]: types never interleave
};

export function hybridPolicy(halfLifeTurns = 5, referenceWeight = 0.5): EvictionPolicy {
  const decay = (age: number) => 0.5 ** (age / halfLifeTurns);
  return {
    name: 'recency-reference',
    score: (b) => {
      const reference = b.lastReferenceAge === undefined ? 0 : decay(b.lastReferenceAge);
      return (1 - referenceWeight) * decay(b.age) + referenceWeight * reference + TYPE_WEIGHT[b.kind] * 0.01;
    },
  };
}

/** Blocks under this are not worth a placeholder. */
const MIN_TOKENS = 64;

/** The evictable blocks of `messages`: not pinned, not in the current turn, not already cleared. */
export function collectBlocks(messages: readonly MessageParam[], pinned: ReadonlySet<number>, protectedFrom: number): ContextBlock[] {
  const calls = toolCalls(messages);
  const turnOf: number[] = [];
  let turn = 0;
  const mentions: Array<{ turn: number; text: string }> = [];
  messages.forEach((m, i) => {
    if (m.role === 'assistant') {
      turn++;
      mentions.push({
        turn,
        text: contentBlocks(m)
          .map((b) => (b.type === 'text' ? b.text : b.type === 'tool_use' ? JSON.stringify(b.input) : ''))
          .join('\n'),
      });
    }
    turnOf[i] = turn;
  });
  const blocks: ContextBlock[] = [];
  messages.forEach((m, msgIndex) => {
    if (pinned.has(msgIndex) || msgIndex >= protectedFrom) return;
    const t = turnOf[msgIndex] ?? 0;
    // A string message is one text block (index -1: clearing replaces the string).
    const content: ContentBlockParam[] = typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : m.content;
    content.forEach((b, i) => {
      const blockIndex = typeof m.content === 'string' ? -1 : i;
      let kind: BlockKind | undefined;
      let call: ToolCall | undefined;
      if (b.type === 'tool_result' && !isPlaceholder(resultText(b))) [kind, call] = ['tool_result', calls.get(b.tool_use_id)];
      else if (b.type === 'tool_use' && !isClearedInput(b.input)) [kind, call] = ['tool_use', calls.get(b.id)];
      else if (b.type === 'text' && !b.text.startsWith(PLACEHOLDER_PREFIX)) kind = m.role === 'assistant' ? 'assistant_text' : 'user_text';
      if (!kind) return;
      const tokens = blockTokens(b);
      if (tokens < MIN_TOKENS) return;
      const block: ContextBlock = { kind, msgIndex, blockIndex, tokens, age: turn - t, references: 0 };
      if (call) {
        block.call = call;
        const handle = briefInput(call.input);
        for (const mention of mentions) {
          if (mention.turn > t && handle.length >= 3 && mention.text.includes(handle)) {
            block.references++;
            block.lastReferenceAge = turn - mention.turn;
          }
        }
      }
      blocks.push(block);
    });
  });
  return blocks;
}

const CLEARED_KEY = '_context_cleared';
const isClearedInput = (input: unknown): boolean => !!input && typeof input === 'object' && CLEARED_KEY in input;

/** Clears one block in place; returns tokens freed. */
function clearBlock(messages: MessageParam[], b: ContextBlock): number {
  const m = messages[b.msgIndex] as MessageParam;
  if (b.blockIndex === -1 && typeof m.content === 'string') {
    const before = estimateTokens(m.content);
    m.content = `${PLACEHOLDER_PREFIX}older ${m.role} text removed to make room (~${before} tokens)]`;
    return Math.max(0, before - estimateTokens(m.content));
  }
  const block = contentBlocks(m)[b.blockIndex];
  if (!block) return 0;
  const before = blockTokens(block);
  if (block.type === 'tool_result') return replaceResult(block, placeholder(b.call, 'evicted to make room', b.tokens));
  if (block.type === 'tool_use') block.input = { [CLEARED_KEY]: `input of ${block.name} removed to make room (~${b.tokens} tokens)` };
  else if (block.type === 'text')
    block.text = `${PLACEHOLDER_PREFIX}older ${b.kind === 'user_text' ? 'user' : 'assistant'} text removed to make room (~${estimateTokens(block.text)} tokens)]`;
  return Math.max(0, before - blockTokens(block));
}

/** Clears blocks in policy order until `targetTokens` are freed (or nothing evictable is left). */
export function evict(messages: MessageParam[], blocks: ContextBlock[], policy: EvictionPolicy, targetTokens: number): TierReport {
  const report = noChange('evict');
  if (targetTokens <= 0) return report;
  const ranked = blocks.map((b) => ({ b, s: policy.score(b) })).sort((x, y) => x.s - y.s || y.b.age - x.b.age);
  for (const { b } of ranked) {
    if (report.freedTokens >= targetTokens) break;
    const freed = clearBlock(messages, b);
    if (freed > 0) {
      report.blocks++;
      report.freedTokens += freed;
    }
  }
  return report;
}
