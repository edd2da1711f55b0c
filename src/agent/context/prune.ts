/**
 * Tier "prune" (after opencode): the newest tool output, up to a protected budget, stays whole;
 * older results are cleared, but only when that frees enough to be worth rewriting the history
 * (every rewrite costs the prompt cache from that point on).
 */
import type { MessageParam } from '@anthropic-ai/sdk/resources/messages';
import { placeholder, replaceResult, toolResults, type ToolResultRef } from './blocks.js';
import { noChange, type TierReport } from './types.js';

export interface PruneConfig {
  enabled: boolean;
  /** Newest tool-output tokens never pruned. */
  protectTokens: number;
  /** Prune only when at least this many tokens would be freed. */
  minimumTokens: number;
}

export const DEFAULT_PRUNE: PruneConfig = { enabled: true, protectTokens: 40_000, minimumTokens: 20_000 };

export function applyPrune(messages: MessageParam[], cfg: PruneConfig, protectedFrom: number): TierReport {
  if (!cfg.enabled) return noChange('prune');
  const live = toolResults(messages).filter((r) => !r.cleared);
  let seen = 0;
  let prunable = 0;
  const victims: ToolResultRef[] = [];
  for (let i = live.length - 1; i >= 0; i--) {
    const r = live[i] as ToolResultRef;
    // A result starting inside the newest protectTokens is kept whole; the current turn always is.
    if (seen < cfg.protectTokens || r.msgIndex >= protectedFrom) {
      seen += r.tokens;
      continue;
    }
    victims.push(r);
    prunable += r.tokens;
  }
  if (prunable < cfg.minimumTokens) return noChange('prune');
  const report = noChange('prune');
  for (const r of victims) {
    report.freedTokens += replaceResult(r.block, placeholder(r.call, 'old tool output pruned', r.tokens));
    report.blocks++;
  }
  return report;
}
