/**
 * The ranker: each candidate's chance of being what the next session should be told, less its
 * chance of being junk (a one-off, a temporary setting, a momentary number), both from the fitted
 * models of weights.json. Candidates below the calibrated floor are neither stored nor recalled.
 */
import type { Candidate } from '../candidates/index.js';
import { FEATURES, featuresOf } from './features.js';
import { probability } from './logistic.js';
import type { SessionContext } from './session-context.js';
import { rankerWeights } from './weights.js';

export interface Ranked {
  candidate: Candidate;
  /** P(wanted) − junkWeight × P(junk). */
  score: number;
  wanted: number;
  junk: number;
  /** The feature vector (FEATURES order), for the memory's type and scope. */
  features: number[];
}

export function rank(candidates: readonly Candidate[], session: SessionContext): Ranked[] {
  const w = rankerWeights();
  return candidates.map((candidate) => {
    const features = featuresOf(candidate, session);
    const wanted = probability(w.wanted, features);
    const junk = probability(w.junk, features);
    return { candidate, score: wanted - w.junkWeight * junk, wanted, junk, features };
  });
}

/** The calibrated floor: below it a candidate is not worth a line. */
export const rankFloor = (): number => rankerWeights().floor;

const BARE = FEATURES.indexOf('mood.bareCommand');

/**
 * A task done: a bare command (nothing in it says it lasts) that the agent then carried out by
 * changing files. What it asked for is in the code now: it is kept as what was built, not as a
 * standing rule, and it ages with the project's sessions like anything bound to its moment.
 */
export function doneTask(r: Pick<Ranked, 'candidate' | 'features'>): boolean {
  return r.candidate.source === 'typed' && r.candidate.actedOn && (r.features[BARE] ?? 0) > 0;
}
