/**
 * Tier "budget": the fuller the context, the smaller each old tool result may be. From 50 %
 * utilisation results over 30,000 characters keep their head and tail; from 70 %, over 15,000.
 * Cheap, and recomputed before every request, so it tightens as pressure rises.
 */
import type { MessageParam } from '@anthropic-ai/sdk/resources/messages';
import { capResult, toolResults } from './blocks.js';
import { noChange, type TierReport } from './types.js';

export interface BudgetStep {
  /** Utilisation (of the input budget) from which this step applies. */
  from: number;
  maxChars: number;
}

export interface BudgetConfig {
  enabled: boolean;
  steps: BudgetStep[];
}

export const DEFAULT_BUDGET: BudgetConfig = {
  enabled: true,
  steps: [
    { from: 0.5, maxChars: 30_000 },
    { from: 0.7, maxChars: 15_000 },
  ],
};

/** The character cap at this utilisation, or undefined below the first step. */
export function budgetCap(utilisation: number, steps: readonly BudgetStep[]): number | undefined {
  let cap: number | undefined;
  for (const s of steps) if (utilisation >= s.from && (cap === undefined || s.maxChars < cap)) cap = s.maxChars;
  return cap;
}

/** Cuts results before `protectedFrom` (the current turn) down to the cap for `utilisation`. */
export function applyBudget(messages: MessageParam[], utilisation: number, cfg: BudgetConfig, protectedFrom: number): TierReport {
  const cap = budgetCap(utilisation, cfg.steps);
  if (!cfg.enabled || cap === undefined) return noChange('budget');
  const report = noChange('budget');
  for (const r of toolResults(messages)) {
    if (r.msgIndex >= protectedFrom || r.cleared) continue;
    const freed = capResult(r.block, cap, 'budgeted');
    if (freed > 0) {
      report.blocks++;
      report.freedTokens += freed;
    }
  }
  return report;
}
