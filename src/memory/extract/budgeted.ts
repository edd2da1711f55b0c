/**
 * The daemon's extractor within the daily model token budget: past it, the heuristics answer with
 * the fallback `daily_budget` (on the session's record, so `memories reextract --fallen-back` can
 * take those sessions again later). Every model extraction is counted in the usage ledger; a
 * heuristic extraction costs nothing and is not.
 */
import type { BackendName } from '../../llm/backend.js';
import { budgetSpentMessage, DAILY_BUDGET } from '../../llm/metered.js';
import type { UsageLedger } from '../../llm/usage-ledger.js';
import type { Extractor } from './types.js';
import type { RankMessages } from './rank-thread.js';

export function budgetedExtractor(extract: Extractor, backend: BackendName, ledger: UsageLedger, rank: RankMessages): Extractor {
  return async (input) => {
    if (!ledger.hasBudget()) {
      const fallback = `${DAILY_BUDGET}: ${budgetSpentMessage(ledger)}`;
      await ledger.record({ backend, purpose: 'extract', call: false, fallback });
      return { ...(await rank(input.messages, input.maxMemories)).offline, fallback };
    }
    const r = await extract(input);
    // A model answer without tokens: nothing was asked (an empty transcript).
    const spent = (r.tokens?.input ?? 0) + (r.tokens?.output ?? 0) > 0 || r.costUsd !== undefined;
    if (r.fallback !== undefined || (r.extractor === 'model' && spent)) {
      const usage = { inputTokens: r.tokens?.input ?? 0, outputTokens: r.tokens?.output ?? 0, ...(r.costUsd !== undefined && { costUsd: r.costUsd }) };
      await ledger.record({ backend, purpose: 'extract', call: true, usage, ...(r.fallback !== undefined && { fallback: r.fallback }) });
    }
    return r;
  };
}
