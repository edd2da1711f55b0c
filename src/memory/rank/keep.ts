/**
 * What one session leaves behind, from its scored statements worth a line (the kinds that are never
 * stored are left out before): a short session keeps them all (a person who said only a few things
 * said them on purpose: three to six crisp facts and rules are the session); a longer one keeps
 * those at or above the floor and its few best whatever their score, at most `perSession`. How
 * short is short is a design rule (SHORT_SESSION in scripts/fit-ranker.ts); the floor, the cap and
 * how many best are kept are chosen with it, out of fold. The fit and the daemon keep by this one
 * function.
 */

/**
 * A statement kept below the floor is stored a little above it: recall drops what decayed under the
 * floor, and one stored at it exactly would be gone after its first day of decay (about two weeks
 * of it at the default half-life).
 */
const RAISED_MARGIN = 0.05;
export const raised = (score: number, floor: number): number => Math.max(score, floor + RAISED_MARGIN);

export interface KeepPolicy {
  floor: number;
  /** The most one session leaves behind. */
  perSession: number;
  /** The session's best this many are kept below the floor. */
  sessionBest: number;
  /** A session with at most this many statements worth a line keeps them all: a person who said only a few things said them on purpose. */
  shortSession: number;
}

type Kept<T> = { item: T; score: number }[];

/**
 * The kept items, best first, each with the score it is stored with (one kept below the floor is
 * raised to it). `own` tells the person's own statements (typed, answers): only those make a session
 * short, and only those are kept whole in one; a summary's or a plan's lines go by the floor. A
 * session that would leave nothing keeps its best statement: one whose only words worth a line are
 * a compaction summary's ("The engine is a Rust workspace") said them all the same.
 */
export function keepOf<T>(items: readonly T[], scoreOf: (t: T) => number, policy: KeepPolicy, own: (t: T) => boolean = () => true): Kept<T> {
  const ranked = items.map((item) => ({ item, score: scoreOf(item) })).sort((a, b) => b.score - a.score);
  const kept = keepRanked(ranked, policy, own);
  const best = ranked[0];
  return kept.length === 0 && best !== undefined ? [{ item: best.item, score: raised(best.score, policy.floor) }] : kept;
}

function keepRanked<T>(ranked: Kept<T>, policy: KeepPolicy, own: (t: T) => boolean): Kept<T> {
  const theirs = ranked.filter((r) => own(r.item));
  if (theirs.length > 0 && theirs.length <= policy.shortSession) {
    const rest = keepRanked(
      ranked.filter((r) => !own(r.item)),
      { ...policy, shortSession: 0, sessionBest: 0 },
      own,
    );
    return [...theirs.map((r) => ({ item: r.item, score: raised(r.score, policy.floor) })), ...rest].sort((a, b) => b.score - a.score);
  }
  const out: Kept<T> = [];
  for (const [i, r] of ranked.entries()) {
    if (out.length >= policy.perSession) break;
    if (r.score >= policy.floor) out.push(r);
    else if (i < policy.sessionBest) out.push({ item: r.item, score: raised(r.score, policy.floor) });
    else break;
  }
  return out;
}
