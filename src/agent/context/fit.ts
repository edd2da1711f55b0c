/**
 * The last line before a request goes out: when tiers and compaction have not brought it under the
 * input budget (compaction failed, the breaker is open, the current turn alone is huge), or tool
 * results pass their component's hard limit, blocks are cleared in policy order. If even that is not
 * enough, the current turn's own tool results are cut to head and tail (never cleared: the model
 * must see what it just asked for).
 */
import type { MessageParam } from '@anthropic-ai/sdk/resources/messages';
import { capResult, currentTurnStart, resultText, toolResults } from './blocks.js';
import { collectBlocks, evict, type EvictionPolicy } from './policy.js';
import { noChange, type TierReport } from './types.js';

export interface EvictNeed {
  /** Tokens to free from any evictable block (the request is over the budget). */
  overall: number;
  /** Tokens to free from tool results (their component is past its hard limit). */
  toolResults: number;
}

export function evictFor(messages: MessageParam[], pinned: ReadonlySet<number>, policy: EvictionPolicy, need: EvictNeed): TierReport {
  if (need.overall <= 0 && need.toolResults <= 0) return noChange('evict');
  const all = collectBlocks(messages, pinned, currentTurnStart(messages));
  const blocks = need.overall > 0 ? all : all.filter((b) => b.kind === 'tool_result');
  return evict(messages, blocks, policy, Math.max(need.overall, need.toolResults));
}

/** Halves the cap on the current turn's results until `excessTokens` are freed or the cap is 1,000 chars. */
export function squeezeCurrentTurn(messages: MessageParam[], excessTokens: number): TierReport {
  const report = noChange('evict');
  const from = currentTurnStart(messages);
  const results = toolResults(messages).filter((r) => r.msgIndex >= from && !r.cleared);
  let cap = results.reduce((n, r) => Math.max(n, resultText(r.block).length), 0);
  const touched = new Set<number>();
  while (report.freedTokens < excessTokens && cap > 1000) {
    cap = Math.max(1000, Math.floor(cap / 2));
    results.forEach((r, i) => {
      const freed = capResult(r.block, cap, 'cut to fit the context window');
      if (freed > 0) {
        report.freedTokens += freed;
        touched.add(i);
      }
    });
  }
  report.blocks = touched.size;
  return report;
}

/**
 * Tokens to evict after a reactive compaction. A summary can outweigh the small head it replaced:
 * unless the request clearly shrank (or compaction failed), evict down to the evict target; at least
 * a quarter of the budget, as the estimate was wrong. 0: none.
 */
export function evictionAfterOverflow(before: number, after: number, compacted: boolean, target: number, budget: number): number {
  if (compacted && after <= before * 0.9) return 0;
  return Math.max(after - Math.floor(target * budget), Math.floor(budget / 4));
}
