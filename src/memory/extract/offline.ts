/**
 * The offline extractor, no model: a session's candidates (candidates/), scored by the fitted
 * ranker (rank/), the best of those above the calibrated floor offered to the store in the
 * person's own words. The model extractor starts from the same ranked list (backend-extract.ts)
 * and falls back to this reading of it.
 */
import { collectCandidates } from '../candidates/index.js';
import { proposalsOf } from '../rank/proposals.js';
import { keepPolicy, rank, type Ranked } from '../rank/score.js';
import { sessionContext } from '../rank/session-context.js';
import type { ExtractInput, ExtractResult } from './types.js';

/** The session's candidates, scored, best first. */
export function rankSession(input: Pick<ExtractInput, 'messages'>): Ranked[] {
  return rank(collectCandidates(input.messages), sessionContext(input.messages)).sort((a, b) => b.score - a.score);
}

/** The offline answer for an already ranked session (so a model extractor ranks only once). */
export function offlineOf(ranked: readonly Ranked[], maxMemories: number): ExtractResult {
  return { proposals: proposalsOf(ranked, keepPolicy(), maxMemories), extractor: 'heuristic' };
}

export function extractOffline(input: ExtractInput): ExtractResult {
  return offlineOf(rankSession(input), input.maxMemories);
}
