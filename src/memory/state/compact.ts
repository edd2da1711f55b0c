/**
 * What the dream does to a project's state: keeps the records of its last sessions, archives the
 * finished work of older ones with a pointer to their session, and merges the commits of one
 * piece of work in a session into one line.
 */
import { sameWork } from './match.js';
import { ordered, resolveState, type StateLine } from './resolve.js';
import type { ArchivedWork, ProjectState, SessionState } from './schema.js';

/**
 * Session records kept per project. An open item ages out after AGE_SESSIONS (4) of the project's
 * sessions, so a record older than the last 8 holds nothing open any more: only finished work,
 * which the archive keeps with its session.
 */
export const KEEP_SESSIONS = 8;
/** Archived lines kept per project (`sessions show` has every session's digest whatever this drops). */
export const ARCHIVE_MAX = 200;

/** A session's commits of one piece of work as one entry (the latest wording, every hash). */
function mergeCommits(s: SessionState): SessionState {
  const commits: SessionState['commits'] = [];
  for (const c of s.commits) {
    const same = c.reverted === true ? undefined : commits.find((o) => o.reverted !== true && sameWork(o.text, c.text));
    if (same === undefined) commits.push({ ...c });
    else Object.assign(same, { text: c.text, messageId: c.messageId, at: c.at, hash: [same.hash, c.hash].filter(Boolean).join(', ') });
  }
  return { ...s, commits };
}

/** "Built: Add retry (a1b2c3d, e4f5a6b)": how an archived line is written, and read back by `archivedLines`. */
function archivedText(l: StateLine): string {
  return `${l.kind === 'built' ? 'Built' : 'Found'}: ${l.text}${l.hashes ? ` (${l.hashes.join(', ')})` : ''}`;
}

const ARCHIVED = /^(Built|Found): (.+?)(?: \(([0-9a-f]{7,40}(?:, [0-9a-f]{7,40})*)\))?$/;

/** The finished work of sessions no longer kept, as state lines: what was built stands until something replaces it. */
export function archivedLines(state: ProjectState): StateLine[] {
  return state.archive.flatMap((a) => {
    const m = ARCHIVED.exec(a.text);
    if (m?.[2] === undefined) return [];
    const hashes = m[3]?.split(', ');
    const kind = m[1] === 'Found' ? 'found' : 'built';
    return [
      {
        kind,
        source: hashes === undefined ? 'archive' : 'commit',
        text: m[2],
        sessionId: a.sessionId,
        messageIds: [],
        at: a.at,
        sessionAt: a.at,
        ...(hashes !== undefined && { hashes }),
      },
    ];
  });
}

export interface CompactResult {
  state: ProjectState;
  archived: number;
  merged: number;
}

export function compactState(state: ProjectState, sessionsAfter: (iso: string) => number): CompactResult {
  const sessions = ordered(state);
  const old = sessions.slice(0, Math.max(0, sessions.length - KEEP_SESSIONS));
  const kept = sessions.slice(old.length).map(mergeCommits);
  const oldIds = new Set(old.map((s) => s.sessionId));
  const finished: ArchivedWork[] = resolveState({ ...state, sessions: old }, sessionsAfter)
    // What was asked and changed, finished tasks and what a report said was done are the latest
    // sessions' record; older work stands in its commits.
    .filter((l) => l.kind !== 'open' && l.source !== 'request' && l.source !== 'todo' && l.source !== 'report' && oldIds.has(l.sessionId))
    .map((l) => ({
      text: archivedText(l),
      sessionId: l.sessionId,
      ...(l.at !== undefined && { at: l.at }),
    }));
  const archive = [...state.archive, ...finished].slice(-ARCHIVE_MAX);
  const merged = sessions.slice(old.length).reduce((n, s, i) => n + s.commits.length - (kept[i]?.commits.length ?? 0), 0);
  return { state: { ...state, sessions: kept, archive }, archived: finished.length, merged };
}
