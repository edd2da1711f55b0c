/**
 * The agent's own record of where a piece of work stands, per session and per project: what was
 * built (commits, plans approved and carried out), what was left open (the last task list, the
 * pending part of the last report, the latest compaction summary's pending tasks) and what was
 * found (causes and fixes the session verified). Validated on read: a file that does not fit is
 * set aside and rebuilt by the next ingests.
 */
import { z } from 'zod';

/** One recorded thing with the message it comes from. */
export const StateEntry = z.object({ text: z.string(), messageId: z.string(), at: z.string().optional() });
export type StateEntry = z.infer<typeof StateEntry>;

export const TodoStatus = z.enum(['pending', 'in_progress', 'completed']);

export const SessionState = z.object({
  /** The session file's key (SessionRecord.key). */
  key: z.string(),
  sessionId: z.string(),
  firstAt: z.string().optional(),
  lastAt: z.string().optional(),
  /** Commits that succeeded; `reverted` once a later `git revert` / `git reset --hard` undid them. */
  commits: z.array(StateEntry.extend({ hash: z.string().optional(), reverted: z.boolean().optional() })),
  /** Plans the person approved; `carried` once files changed or a commit followed. */
  plans: z.array(StateEntry.extend({ carried: z.boolean() })),
  /** The last task list of the session (each TodoWrite / update_plan replaces the one before). */
  todos: z.array(StateEntry.extend({ status: TodoStatus })),
  /** The "Pending Tasks" of the latest compaction summary, until a newer task list replaces them. */
  summary: z.array(StateEntry),
  /** What the person asked for and the agent then changed files for, before the person spoke again and did not dispute. */
  requests: z.array(StateEntry).default([]),
  /** The pending part of the agent's latest report that had one. */
  reportPending: z.array(StateEntry),
  /** What the agent's reports said was done (closes pending items); dropped when the person disputed it. */
  claims: z.array(StateEntry),
  /** Placeholder lines (TODO, FIXME, …) a write of the session filled in: each closes what was left open about it. */
  filled: z.array(StateEntry).default([]),
  /** The agent's latest report said nothing is left: what earlier sessions left open is settled. */
  cleared: z.boolean().optional(),
  /** Causes and their fixes the agent established, a check passed after, and the person did not dispute. */
  found: z.array(StateEntry),
  /**
   * What an incremental ingest hands the next one of the same file: what the person's latest
   * message asks (null: nothing) while no write has carried it out, the writes whose results are
   * not read yet, whether a change was recorded since the person last spoke, and the placeholder
   * lines of writes whose results are not read yet.
   */
  carry: z
    .object({
      asked: StateEntry.nullable().optional(),
      writes: z.array(z.string()).default([]),
      recentRequest: z.boolean().default(false),
      filling: z.array(z.object({ call: z.string(), lines: z.array(z.string()) })).default([]),
    })
    .optional(),
});
export type SessionState = z.infer<typeof SessionState>;

/** Finished work the dream took out of the state, with where to read it whole. */
export const ArchivedWork = z.object({ text: z.string(), sessionId: z.string(), at: z.string().optional() });
export type ArchivedWork = z.infer<typeof ArchivedWork>;

export const ProjectState = z.object({
  version: z.literal(1),
  project: z.string(),
  /** Oldest first. */
  sessions: z.array(SessionState),
  archive: z.array(ArchivedWork),
});
export type ProjectState = z.infer<typeof ProjectState>;

export function emptySessionState(key: string, sessionId: string): SessionState {
  return { key, sessionId, commits: [], plans: [], todos: [], summary: [], requests: [], reportPending: [], claims: [], filled: [], found: [] };
}
