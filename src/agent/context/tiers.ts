/**
 * The cheap tiers in the order they run before a request: budget cuts big results first, so snip's
 * and prune's sizes are already the cut ones; microcompact clears indiscriminately last, and only
 * when the prompt cache has gone cold anyway. None of them calls the model. Each tier (eviction
 * included) runs at most once per iteration: a retry after an overflow does not run them again.
 */
import type { MessageParam } from '@anthropic-ai/sdk/resources/messages';
import { currentTurnStart } from './blocks.js';
import { applyBudget } from './budget.js';
import type { ContextConfig } from './config.js';
import { applyMicrocompact } from './microcompact.js';
import { applyPrune } from './prune.js';
import { applySnip } from './snip.js';
import type { Clock, TierName, TierReport } from './types.js';

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

/** Which tiers ran this iteration, and since when the prompt cache has been idle. */
export class TierSchedule {
  private readonly ran = new Set<TierName>();
  private lastResponseAt: number | undefined;

  /** `resumed`: a resumed task's prompt cache is long cold, so microcompact applies at once. */
  constructor(
    private readonly clock: Clock,
    private readonly resumed: boolean,
  ) {}

  newIteration(): void {
    this.ran.clear();
  }

  /** A response arrived: the prompt cache is warm from now. */
  responded(): void {
    this.lastResponseAt = this.clock();
  }

  /** True the first time `tier` is asked for in this iteration. */
  claim(tier: TierName): boolean {
    if (this.ran.has(tier)) return false;
    this.ran.add(tier);
    return true;
  }

  /** The cheap tiers not yet run this iteration, run in order on `messages`; only budget reads `utilisation`. */
  runCheap(messages: MessageParam[], cfg: ContextConfig, utilisation: number): TierReport[] {
    const idleMs = this.lastResponseAt === undefined ? (this.resumed ? Infinity : 0) : this.clock() - this.lastResponseAt;
    return TIERS.filter((t) => this.claim(t)).map((t) => runTier(t, messages, cfg, utilisation, idleMs));
  }
}
