/**
 * A backend within the daily token budget, with every call counted in the usage ledger. Past the
 * budget it asks nothing and answers `daily_budget`, so the caller's heuristics decide until the
 * next local day.
 */
import type { BackendAnswer, ModelBackend, StructuredQuestion } from './backend.js';
import type { UsageLedger } from './usage-ledger.js';

export const DAILY_BUDGET = 'daily_budget';

export function budgetSpentMessage(ledger: UsageLedger): string {
  return `the daily model token budget (memory.dailyTokenBudget, ${ledger.dailyBudget}) is spent (${ledger.spentToday()} today); heuristics until tomorrow`;
}

export function meteredBackend(inner: ModelBackend, ledger: UsageLedger): ModelBackend {
  return {
    name: inner.name,
    model: inner.model,
    async ask(q: StructuredQuestion): Promise<BackendAnswer> {
      if (!ledger.hasBudget()) {
        await ledger.record({ backend: inner.name, purpose: q.purpose, call: false, fallback: DAILY_BUDGET });
        return { ok: false, code: DAILY_BUDGET, message: budgetSpentMessage(ledger), ms: 0 };
      }
      const a = await inner.ask(q);
      await ledger.record({
        backend: inner.name,
        purpose: q.purpose,
        call: true,
        ...(a.usage && { usage: a.usage }),
        ...(!a.ok && { fallback: a.code }),
      });
      return a;
    },
  };
}
