/** Memory rules that do not depend on storage: ids, decay, ranking weights, namespaces. */
import { randomBytes } from 'node:crypto';
import type { Memory } from '../../api/memory.js';
import { NO_ACTIVITY, type Activity, type ProjectClock } from './activity.js';
import { namespaceOf } from './namespace.js';

export { namespaceKey, namespaceOf, type Namespace } from './namespace.js';

export const HALF_LIFE_DAYS = 30;
/** Below this share of its base a decaying memory is never recalled, and the dream archives it. */
export const PRUNE_FACTOR = 0.1;
const DAY_MS = 86_400_000;

export function newMemoryId(): string {
  return `m${randomBytes(6).toString('hex')}`;
}

/** A memory that decays loses half its weight over this many sessions of its project that went by without it. */
export const SESSION_HALF_LIFE = 10;

/**
 * How much of its base a memory keeps. Stable and pinned memories keep all of it. Others halve
 * every 30 days of the project's own activity (from when the memory was last seen to the project's
 * last session: an idle project does not age) and every 10 sessions of the project that went by
 * without it.
 */
export function decay(
  m: Pick<Memory, 'stable' | 'pinned' | 'lastSeenAt' | 'scope' | 'project' | 'team'>,
  nowMs: number,
  activity: Activity = NO_ACTIVITY,
): number {
  if (m.stable || m.pinned) return 1;
  const clock = activity.clock(namespaceOf(m));
  const seen = timeOf(m);
  return keptOf(seen, clock.after(seen), nowMs, clock);
}

/** A memory's relevance: `base × decay`, decay counted in the project's own time (see `decay`). */
export function relevance(
  m: Pick<Memory, 'importance' | 'stable' | 'pinned' | 'lastSeenAt' | 'scope' | 'project' | 'team'>,
  nowMs: number,
  activity?: Activity,
): number {
  return m.importance * decay(m, nowMs, activity);
}

/** Each doubling of the sessions that said a thing adds this much to its rank: said again is a strong sign. */
export const SESSION_WEIGHT = 1;

/** The distinct sessions a memory was said in (a memory stored by hand counts as one). */
export function sessionsOf(m: Pick<Memory, 'sources'>): number {
  if (m.sources.length <= 1) return 1;
  return new Set(m.sources.map((s) => s.sessionId)).size;
}

/**
 * What was said in the project's latest sessions is likelier to be how things are now: a memory
 * ranks half as high for every FRESH_HALF_LIFE sessions of its project since it was last said, down
 * to FRESH_MIN. Ranking only: nothing is pruned for it, and a stable rule keeps its relevance.
 */
export const FRESH_HALF_LIFE = 8;
export const FRESH_MIN = 0.25;

/**
 * What a memory rests on in its repository changed since it was said (evidence/): it may no longer
 * hold, so it ranks at this share until it is said or confirmed again. Not pruned for it.
 */
export const REVERIFY_FACTOR = 0.5;

/** Where a memory keeps its parsed `lastSeenAt`: a symbol, so it never reaches JSON or a copy. */
const SEEN = Symbol('lastSeenMs');
type Timed = { lastSeenAt: string; [SEEN]?: { iso: string; ms: number } };

/** `lastSeenAt` in ms, parsed once per value: recall reads it for every memory of the store. */
function timeOf(m: Pick<Memory, 'lastSeenAt'>): number {
  const t = m as Timed;
  const hit = t[SEEN];
  if (hit !== undefined && hit.iso === t.lastSeenAt) return hit.ms;
  const ms = Date.parse(t.lastSeenAt);
  t[SEEN] = { iso: t.lastSeenAt, ms };
  return ms;
}

const freshness = (since: number): number => (since === 0 ? 1 : Math.max(FRESH_MIN, 0.5 ** (since / FRESH_HALF_LIFE)));

/** Sessions of its project a memory goes through before its freshness counts against recall's floor. */
export const FLOOR_GRACE_SESSIONS = 1;

/**
 * The share of its freshness a memory lost in the grace its project's next sessions give it: recall
 * divides its rank by this to test the floor, so a statement kept at the floor is in the block of
 * the session that follows, and gives way only as the project moves on.
 */
export function graceOf(m: Pick<Memory, 'lastSeenAt'>, clock: ProjectClock): number {
  const since = clock.after(timeOf(m));
  return freshness(since) / freshness(Math.max(0, since - FLOOR_GRACE_SESSIONS));
}

/**
 * A memory's rank without a query, in its project's time (`clock` is its namespace's): its decayed
 * relevance, raised by the sessions that said it and by a pin, lowered by the sessions since it was
 * last said (freshness). -1 when it decayed below PRUNE_FACTOR of its base: never recalled. A
 * number, not an object: recall asks it of every memory in the store.
 */
export function rankOf(
  m: Pick<Memory, 'stable' | 'pinned' | 'lastSeenAt' | 'importance' | 'sources' | 'reverify'>,
  nowMs: number,
  clock: ProjectClock,
): number {
  const seen = timeOf(m);
  const since = clock.after(seen);
  let kept = 1;
  if (!m.stable && !m.pinned) {
    kept = keptOf(seen, since, nowMs, clock);
    if (kept < PRUNE_FACTOR) return -1;
  }
  const fresh = freshness(since);
  const said = m.sources.length <= 1 ? 0 : SESSION_WEIGHT * Math.log2(sessionsOf(m));
  return m.importance * kept * (1 + said) * (m.pinned ? 1.5 : 1) * fresh * (m.reverify === undefined ? 1 : REVERIFY_FACTOR);
}

/**
 * What rankOf can give this memory at most, whatever the time and its project's sessions: its
 * factors for age, sessions since and re-verifying are at most 1. Written as rankOf multiplies,
 * with those factors left out, so the bound holds in floating point too: recall skips, without
 * ranking it, a memory whose bound cannot beat what it already holds.
 */
export function rankBound(m: Pick<Memory, 'importance' | 'pinned' | 'sources'>): number {
  const said = m.sources.length <= 1 ? 0 : SESSION_WEIGHT * Math.log2(sessionsOf(m));
  return m.importance * (1 + said) * (m.pinned ? 1.5 : 1);
}

function keptOf(seen: number, since: number, nowMs: number, clock: ProjectClock): number {
  const days = Math.max(0, (Math.min(nowMs, clock.last ?? nowMs) - seen) / DAY_MS);
  return 0.5 ** (days / HALF_LIFE_DAYS) * 0.5 ** (since / SESSION_HALF_LIFE);
}

export const isActive = (m: Memory): boolean => m.archivedAt === undefined && m.supersededBy === undefined;

/** The person edited it after (or when) `iso` was said: a statement from then never replaces their words. */
export const editedSince = (m: Pick<Memory, 'editedAt'>, iso: string): boolean => m.editedAt !== undefined && m.editedAt >= iso;

/** Each namespace's clock, looked up once per namespace however many memories ask. */
export function clocksOf(activity: Activity = NO_ACTIVITY): (m: Pick<Memory, 'scope' | 'project' | 'team'>) => ProjectClock {
  const clocks = new Map<string, ProjectClock>();
  return (m) => {
    const key = m.scope === 'project' ? `p${m.project ?? ''}` : m.scope === 'team' ? `t${m.team ?? ''}` : 'u';
    let c = clocks.get(key);
    if (c === undefined) {
      c = activity.clock(namespaceOf(m));
      clocks.set(key, c);
    }
    return c;
  };
}
