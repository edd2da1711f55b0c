/**
 * What the dream does to a project's state: keeps the records of its last sessions, archives the
 * finished work of older ones with a pointer to their session, and merges the commits of one
 * piece of work in a session into one line.
 */
import { sameWork } from './match.js';
import { ordered, resolveState } from './resolve.js';
import type { ArchivedWork, ProjectState, SessionState } from './schema.js';

/**
 * Session records kept per project. An open item ages out after AGE_SESSIONS (6) of the project's
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
    .filter((l) => l.kind !== 'open' && oldIds.has(l.sessionId))
    .map((l) => ({
      text: `${l.kind === 'built' ? 'Built' : 'Found'}: ${l.text}${l.hashes ? ` (${l.hashes.join(', ')})` : ''}`,
      sessionId: l.sessionId,
      ...(l.at !== undefined && { at: l.at }),
    }));
  const archive = [...state.archive, ...finished].slice(-ARCHIVE_MAX);
  const merged = sessions.slice(old.length).reduce((n, s, i) => n + s.commits.length - (kept[i]?.commits.length ?? 0), 0);
  return { state: { ...state, sessions: kept, archive }, archived: finished.length, merged };
}
