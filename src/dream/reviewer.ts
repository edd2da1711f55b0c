/**
 * Who reviews the dream's pairs that read alike (dream.reviewer): a ModelBackend within the daily
 * budget and counted in the usage ledger, or no one (the heuristics decide), with the reason.
 */
import type { Config } from '../config.js';
import { reviewerBackend } from '../llm/backends/resolve.js';
import { meteredBackend } from '../llm/metered.js';
import type { UsageLedger } from '../llm/usage-ledger.js';
import type { Logger } from '../log.js';
import type { ModelReview } from './model-review.js';

export interface ReviewerInfo {
  /** `heuristic`, or the backend and its model. */
  active: string;
  why: string;
  /** A backend is configured but could not be had. */
  unavailable?: boolean;
}

export async function openReviewer(
  config: Config,
  env: NodeJS.ProcessEnv,
  log: Logger,
  ledger: UsageLedger | undefined,
): Promise<{ review: ModelReview | undefined; reviewer: ReviewerInfo }> {
  const chosen = reviewerBackend(config, env);
  if (!chosen.backend) return { review: undefined, reviewer: { active: 'heuristic', why: chosen.why } };
  // Loaded only when used: the model SDK costs a daemon without a model ~0.1–0.3 s of start-up.
  const [{ createBackend }, { createModelReview }] = await Promise.all([import('../llm/backends/index.js'), import('./model-review.js')]);
  const made = await createBackend(chosen.backend, config, env, log);
  if (!made.ok) {
    log.warn({ reason: made.reason }, `dream reviewer ${chosen.backend} unavailable; the heuristics decide`);
    return {
      review: undefined,
      reviewer: { active: 'heuristic', why: `${chosen.why}, but ${chosen.backend} is unavailable: ${made.reason}`, unavailable: true },
    };
  }
  const backend = ledger ? meteredBackend(made.backend, ledger) : made.backend;
  return {
    review: createModelReview({ backend, budget: config.dream.tokenBudget, log }),
    reviewer: { active: `${backend.name} ${backend.model}`, why: chosen.why },
  };
}
