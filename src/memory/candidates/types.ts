/**
 * A candidate: one statement of the person (or one the session established), with where it came
 * from and the context the ranker reads. Candidates are not verdicts: every statement becomes one,
 * and only generic junk (acknowledgements, unanswered questions, output, secrets, what was later
 * taken back) is left out before the ranker scores the rest.
 */
import type { Sentence } from '../nlp/index.js';
import type { UnitSource } from './unit.js';

export type CandidateSource = UnitSource;

export interface Candidate {
  /** The person's words, tidied (fillers and markup off), never cut inside a sentence. */
  text: string;
  source: CandidateSource;
  sentence: Sentence;
  messageId: string;
  at?: string;
  bullet: boolean;
  intro?: string;
  /** Part of a pasted document (a spec, a brief), mined line by line. */
  document: boolean;
  /** The message opens by asking something: what follows is about that request. */
  investigative: boolean;
  /** Typed messages before this one in the session. */
  turn: number;
  /** From the first section of an approved plan. */
  lead?: boolean;
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
  /** A rejection: what was rejected (a plan's gist, a tool call). */
  rejects?: string;
  /** The agent changed files after it, before the person spoke again: what it asked was done then. */
  actedOn: boolean;
}
