/**
 * How active each project has been: when its sessions started, and when it last had one. Decay
 * counts a project's own activity, not the calendar alone: a memory ages with the sessions of its
 * project that went by without it, and with the wall time between its last sighting and the
 * project's last session. A project left alone for six months keeps its memories as they were.
 */
import type { Namespace } from './namespace.js';
import type { SessionRecord } from '../../api/memory.js';

/** One namespace's activity, for ranking many of its memories at once. */
export interface ProjectClock {
  /** When its project (for the user: any project) last had a session, in ms. */
  last: number | undefined;
  /** Sessions of its project that started after `ms`. */
  after(ms: number): number;
}

export interface Activity {
  /** When the namespace's project (for the user: any project) last had a session, in ms. */
  lastMs(ns: Namespace): number | undefined;
  /** Sessions of the namespace's project that started after `iso`. */
  sessionsAfter(ns: Namespace, iso: string): number;
  clock(ns: Namespace): ProjectClock;
}

interface Timeline {
  /** Session start times, ascending (ms). */
  starts: number[];
  last: number;
}

function timeline(records: readonly Pick<SessionRecord, 'firstMessageAt' | 'lastMessageAt'>[]): Timeline {
  const starts = records.flatMap((r) => (r.firstMessageAt === undefined ? [] : [Date.parse(r.firstMessageAt)])).filter(Number.isFinite);
  starts.sort((a, b) => a - b);
  const last = Math.max(-Infinity, ...records.flatMap((r) => (r.lastMessageAt === undefined ? [] : [Date.parse(r.lastMessageAt)])).filter(Number.isFinite));
  return { starts, last };
}

/** Index of the first start after `ms` (binary search). */
function firstAfter(starts: readonly number[], ms: number): number {
  let lo = 0;
  let hi = starts.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((starts[mid] as number) <= ms) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The activity of the main sessions (sidechains are part of their parent's session). */
export function activityOf(sessions: readonly Pick<SessionRecord, 'project' | 'agentId' | 'firstMessageAt' | 'lastMessageAt'>[]): Activity {
  const main = sessions.filter((s) => s.agentId === undefined);
  const byProject = new Map<string, Timeline>();
  const projects = new Map<string, typeof main>();
  for (const s of main) {
    if (s.project === null) continue;
    const list = projects.get(s.project);
    if (list === undefined) projects.set(s.project, [s]);
    else list.push(s);
  }
  for (const [p, list] of projects) byProject.set(p, timeline(list));
  const everyone = timeline(main);
  const of = (ns: Namespace): Timeline | undefined => (ns.scope === 'project' ? byProject.get(ns.project) : ns.scope === 'user' ? everyone : undefined);
  const clock = (ns: Namespace): ProjectClock => {
    const t = of(ns);
    if (t === undefined) return NO_CLOCK;
    return { last: Number.isFinite(t.last) ? t.last : undefined, after: (ms) => t.starts.length - firstAfter(t.starts, ms) };
  };
  return {
    lastMs: (ns) => clock(ns).last,
    sessionsAfter: (ns, iso) => clock(ns).after(Date.parse(iso)),
    clock,
  };
}

const NO_CLOCK: ProjectClock = { last: undefined, after: () => 0 };

/** No sessions known: decay by the calendar alone. */
export const NO_ACTIVITY: Activity = { lastMs: () => undefined, sessionsAfter: () => 0, clock: () => NO_CLOCK };
