/**
 * What one session leaves behind, from its scored statements: those at or above the floor, the
 * session's few best whatever their score, and every one of a short session's (a session of a few
 * plain statements has them worth keeping even where a long one's floor would drop them), at most
 * `perSession` in all. The floor,
 * the cap and how many best are kept are chosen together, out of fold (scripts/fit-ranker.ts);
 * the fit and the daemon keep by this one function.
 */

export interface KeepPolicy {
  floor: number;
  /** The most one session leaves behind. */
  perSession: number;
  /** The session's best this many are kept below the floor. */
  sessionBest: number;
  /** A session with at most this many statements worth a line keeps them all: a person who said only a few things said them on purpose. */
  shortSession: number;
}

/** The kept items, best first, each with the score it is stored with (a session-best below the floor is raised to it). */
export function keepOf<T>(items: readonly T[], scoreOf: (t: T) => number, policy: KeepPolicy): { item: T; score: number }[] {
  const ranked = items.map((item) => ({ item, score: scoreOf(item) })).sort((a, b) => b.score - a.score);
  const out: { item: T; score: number }[] = [];
  for (const [i, r] of ranked.entries()) {
    if (out.length >= policy.perSession) break;
    if (r.score >= policy.floor) out.push(r);
    else if (i < policy.sessionBest || ranked.length <= policy.shortSession) out.push({ item: r.item, score: policy.floor });
    else break;
  }
  return out;
}
