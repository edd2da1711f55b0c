import type { DoctorCheck, DoctorResponse, UsageResponse } from '../../api/model-usage.js';
import { nowMs } from '../../clock.js';
import type { Config } from '../../config.js';
import type { DreamService } from '../../dream/service.js';
import { ANTHROPIC_ENV, anthropicEnv, extractorBackend } from '../../llm/backends/resolve.js';
import { runChecks } from '../../llm/doctor/checks.js';
import type { UsageLedger } from '../../llm/usage-ledger.js';
import type { Handlers } from '../http.js';

export interface ModelUsageDeps {
  ledger: UsageLedger;
  /** The extractor the daemon started with, as it describes itself. */
  extractor: string;
  dreams: DreamService;
  /** The config in effect (restart-only keys as they were at start). */
  config: () => Config;
  env: NodeJS.ProcessEnv;
  /** Tokens injected per session (the injection ledger), newest first. */
  injected?: () => NonNullable<UsageResponse['injected']>;
}

/** Why the daemon's extractor is not the configured backend, as far as can be told from here. */
function unavailableWhy(backend: string | undefined, env: NodeJS.ProcessEnv): string {
  if (backend === 'anthropic' && !Object.values(anthropicEnv(env)).some(Boolean)) return `none of ${ANTHROPIC_ENV.join(', ')} is set`;
  return "see the daemon's log";
}

export function modelUsageHandlers(d: ModelUsageDeps): Pick<Handlers, 'usage' | 'doctor'> {
  const budget = () => ({ dailyTokens: d.ledger.dailyBudget, spentToday: d.ledger.spentToday() });
  return {
    usage: async ({ query }) => {
      const from = new Date(nowMs() - query.days * 86_400_000).toISOString();
      const injected = d.injected?.().filter((s) => s.lastAt >= from);
      return { json: { days: d.ledger.days(query.days), budget: budget(), ...(injected && { injected }) } };
    },
    doctor: async () => {
      const config = d.config();
      const x = extractorBackend(config, d.env);
      const heuristicInstead = x.backend !== undefined && d.extractor === 'heuristic';
      const extractor = {
        configured: config.memory.extractor,
        active: d.extractor,
        why: heuristicInstead ? `${x.why}, but ${x.backend} is unavailable (${unavailableWhy(x.backend, d.env)})` : x.why,
      };
      const { unavailable, ...rest } = d.dreams.reviewer;
      const reviewer = { configured: config.dream.reviewer, ...rest };
      const checks: DoctorCheck[] = [
        {
          name: 'memory extractor',
          ok: !heuristicInstead,
          detail: heuristicInstead ? `${x.backend} is configured but unavailable; the heuristics extract meanwhile` : 'as configured',
          blocking: true,
        },
        {
          name: 'dream reviewer',
          ok: !unavailable,
          detail: unavailable ? 'configured but unavailable; the heuristics decide meanwhile' : 'as configured',
          blocking: true,
        },
        ...(await runChecks(config, d.env)),
      ];
      const b = budget();
      if (b.spentToday >= b.dailyTokens && (x.backend !== undefined || reviewer.active !== 'heuristic'))
        checks.push({
          name: 'daily budget',
          ok: false,
          detail: `spent (${b.spentToday} of ${b.dailyTokens} tokens today): heuristics until tomorrow`,
          blocking: false,
        });
      const json: DoctorResponse = { extractor, reviewer, env: anthropicEnv(d.env), budget: b, checks };
      return { json };
    },
  };
}
