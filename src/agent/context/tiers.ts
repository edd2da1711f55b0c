/**
 * The cheap tiers in the order they run before a request: budget cuts big results first, so snip's
 * and prune's sizes are already the cut ones; microcompact clears indiscriminately last, and only
 * when the prompt cache has gone cold anyway. None of them calls the model.
 */
import type { MessageParam } from '@anthropic-ai/sdk/resources/messages';
import { currentTurnStart } from './blocks.js';
import { applyBudget } from './budget.js';
import type { ContextConfig } from './config.js';
import { applyMicrocompact } from './microcompact.js';
import { applyPrune } from './prune.js';
import { applySnip } from './snip.js';
import type { TierReport } from './types.js';

export const TIERS = ['budget', 'snip', 'microcompact', 'prune'] as const;
export type CheapTier = (typeof TIERS)[number];

/** Runs one tier on `messages` in place; the current turn is never touched. */
export function runTier(tier: CheapTier, messages: MessageParam[], cfg: ContextConfig, utilisation: number, idleMs: number): TierReport {
  const from = currentTurnStart(messages);
  switch (tier) {
    case 'budget':
      return applyBudget(messages, utilisation, cfg.budget, from);
    case 'snip':
      return applySnip(messages, cfg.snip, from);
    case 'microcompact':
      return applyMicrocompact(messages, cfg.microcompact, idleMs, from);
    case 'prune':
      return applyPrune(messages, cfg.prune, from);
  }
}
