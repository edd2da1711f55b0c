/**
 * What a model extraction reads: the session's ranked candidates (offline.ts), a wider pool than
 * the offline extractor keeps, since the model is there to tell the near misses from the noise.
 * The pool reaches a little under the fitted floor (POOL_MARGIN). Each candidate is numbered (C1,
 * C2… in session order) and carries the offline reading of it (rank/proposals.ts): its tidy
 * wording, type, scope and what it replaces.
 */
import { proposalsOf } from '../rank/proposals.js';
import { rankFloor, type Ranked } from '../rank/score.js';
import type { Proposal } from '../rank/proposals.js';

/** The pool reaches this far under the ranker's floor. */
export const POOL_MARGIN = 0.12;
/** Candidates a session at most: the best by score (a few thousand prompt tokens in all). */
export const POOL_MAX = 80;
/** Candidates one question at most, so that its answer fits the output tokens of one call. */
export const PER_CALL = 40;

export interface Numbered {
  /** C1, C2…: the number the model cites. */
  n: number;
  ranked: Ranked;
  /** The offline proposal of this candidate alone. */
  offline: Proposal;
}

export function poolOf(ranked: readonly Ranked[], max = POOL_MAX): Numbered[] {
  const floor = rankFloor() - POOL_MARGIN;
  const best = ranked
    .filter((r) => r.score >= floor)
    .sort((a, b) => b.score - a.score)
    .slice(0, Math.max(0, max))
    .sort((a, b) => a.candidate.index - b.candidate.index);
  const read = best.flatMap((r) =>
    proposalsOf([r], { floor: Number.NEGATIVE_INFINITY, perSession: 1, sessionBest: 0, shortSession: 0 }, 1).map((offline) => ({ ranked: r, offline })),
  );
  return read.map((x, i) => ({ n: i + 1, ...x }));
}

/** Consecutive runs of at most `perCall` candidates, of even size (50 asks 25 + 25, not 40 + 10). */
export function chunksOf(pool: readonly Numbered[], perCall = PER_CALL): Numbered[][] {
  if (pool.length === 0) return [];
  const size = Math.ceil(pool.length / Math.ceil(pool.length / Math.max(1, perCall)));
  const out: Numbered[][] = [];
  for (let i = 0; i < pool.length; i += size) out.push(pool.slice(i, i + size));
  return out;
}
