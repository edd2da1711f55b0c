/**
 * A candidate: one statement of the person (or one the session established), with where it came
 * from and the context the ranker reads. Candidates are not verdicts: every statement becomes one,
 * and only generic junk (acknowledgements, unanswered questions, output, secrets, what was later
 * taken back) is left out before the ranker scores the rest.
 */
import type { Unit, UnitSource } from './unit.js';

export type CandidateSource = UnitSource;

/** Stage 2 of 9 (after `Unit`, before `Ranked`): a unit kept for the ranker, with its place in the session. */
export interface Candidate extends Unit {
  /** Order of the candidate in the session, and how many there are (for its relative position). */
  index: number;
  count: number;
  /** Position of the sentence in its message, and how many the message gave. */
  inMessage: number;
  ofMessage: number;
  /** Length of the message it came from. */
  messageChars: number;
  /** Other candidates of the session that say nearly the same (said again). */
  repeats: number;
  /** The agent changed files after it, before the person spoke again: what it asked was done then. */
  actedOn: boolean;
}
