/**
 * The ranker: each candidate's chance of being what the next session should be told, less its
 * chance of being junk (a one-off, a temporary setting, a momentary number), both from the fitted
 * models of weights.json. Candidates below the calibrated floor are neither stored nor recalled.
 */
import type { Candidate } from '../candidates/index.js';
import { readCandidate } from './features.js';
import { raised, type KeepPolicy } from './keep.js';
import type { Kind } from './kind.js';
import { probability } from './logistic.js';
import type { SessionContext } from './session-context.js';
import { rankerWeights } from './weights.js';

/** Stage 3 of 9 (after `Candidate`, before `Proposal`): a candidate with its kind, features and score. */
export interface Ranked {
  candidate: Candidate;
  /** P(wanted) − junkWeight × P(junk). */
  score: number;
  wanted: number;
  junk: number;
  /** The feature vector (FEATURES order), for the memory's type and scope. */
  features: number[];
  /** What kind of statement it is: where it is shown, and whether it is kept at all. */
  kind: Kind;
}

export function rank(candidates: readonly Candidate[], session: SessionContext): Ranked[] {
  const w = rankerWeights();
  return candidates.map((candidate) => {
    const { kind, features } = readCandidate(candidate, session);
    const wanted = probability(w.wanted, features);
    const junk = probability(w.junk, features);
    return { candidate, score: wanted - w.junkWeight * junk, wanted, junk, features, kind };
  });
}

/** The calibrated floor: below it a candidate is not worth a line. */
export const rankFloor = (): number => rankerWeights().floor;

/** An importance lowered for a reason of its own (a statement made at home), kept as far above the floor as one kept below it. */
export const lowered = (importance: number, factor: number): number => Math.min(importance, raised(importance * factor, rankerWeights().floor));

/** What a session keeps of its statements (keep.ts), chosen with the floor out of fold. */
export function keepPolicy(): KeepPolicy {
  const w = rankerWeights();
  return { floor: w.floor, perSession: w.perSession, sessionBest: w.sessionBest, shortSession: w.shortSession };
}
