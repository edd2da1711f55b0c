/**
 * Which backend answers which question, from the config and the environment, with the reason in
 * words (`doctor` shows it). Credentials are only tested for presence, never read out.
 */
import type { Config } from '../../config.js';
import type { BackendName } from '../backend.js';

export const ANTHROPIC_ENV = ['ANTHROPIC_API_KEY', 'ANTHROPIC_AUTH_TOKEN', 'ANTHROPIC_BASE_URL'] as const;

export interface Resolved {
  /** Undefined: the heuristics. */
  backend: BackendName | undefined;
  why: string;
}

const isSet = (env: NodeJS.ProcessEnv, k: string) => Boolean(env[k]?.trim());

/** Whether each Anthropic variable is set (never its value). */
export function anthropicEnv(env: NodeJS.ProcessEnv): Record<string, boolean> {
  return Object.fromEntries(ANTHROPIC_ENV.map((k) => [k, isSet(env, k)]));
}

export function extractorBackend(config: Config, env: NodeJS.ProcessEnv): Resolved {
  const v = config.memory.extractor;
  if (v === 'heuristic') return { backend: undefined, why: 'memory.extractor is "heuristic"' };
  if (v !== 'auto') return { backend: v, why: `memory.extractor is "${v}"` };
  const set = ANTHROPIC_ENV.filter((k) => isSet(env, k));
  if (set.length > 0) return { backend: 'anthropic', why: `memory.extractor is "auto" and ${set.join(', ')} ${set.length > 1 ? 'are' : 'is'} set` };
  return { backend: undefined, why: `memory.extractor is "auto" and none of ${ANTHROPIC_ENV.join(', ')} is set` };
}

export function reviewerBackend(config: Config, env: NodeJS.ProcessEnv): Resolved {
  const v = config.dream.reviewer;
  if (config.dream.tokenBudget === 0) return { backend: undefined, why: 'dream.tokenBudget is 0' };
  if (v === 'heuristic') return { backend: undefined, why: 'dream.reviewer is "heuristic"' };
  if (v !== 'auto') return { backend: v, why: `dream.reviewer is "${v}"` };
  const x = extractorBackend(config, env);
  return { backend: x.backend, why: `dream.reviewer is "auto": the memory extractor's ${x.backend ? 'model' : 'choice'} (${x.why})` };
}
