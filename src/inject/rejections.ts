/**
 * A memory rejected in a project ("not useful" on the dashboard, `nightshift memories reject`): kept
 * out of that project's injections and recalls until it is reinforced (a later session says it
 * again: its reinforcement count grows past the one recorded here). Each rejection carries what
 * the ranker's fit needs to use it as a labelled negative offline (scripts/fit/rejections.ts): the
 * text, its source messages and where their transcripts are.
 */
import type { Memory, SessionRecord } from '../api/memory.js';

export interface Rejection {
  memoryId: string;
  /** The project it is kept out of (null: the user's recall outside any project). */
  project: string | null;
  at: string;
  /** The memory's reinforcements when it was rejected. */
  reinforcements: number;
  content: string;
  type: string;
  sources: Memory['sources'];
  transcripts: { sessionId: string; path: string; format?: string }[];
  /** The injection it was rejected from, when it was. */
  injection?: string;
}

/** A rejection or its undo (`memories unreject`), as a memory's history shows it. */
export interface RejectionEvent {
  kind: 'rejected' | 'unrejected';
  project: string | null;
  at: string;
}

export function isRejectionLive(r: Rejection, reinforcements: number | undefined): boolean {
  return reinforcements === undefined || reinforcements <= r.reinforcements;
}

export function rejectionOf(m: Memory, project: string | null, at: string, sessions: readonly SessionRecord[], injection?: string): Rejection {
  const ids = new Set(m.sources.map((s) => s.sessionId));
  return {
    memoryId: m.id,
    project,
    at,
    reinforcements: m.reinforcements,
    content: m.content,
    type: m.type,
    sources: m.sources,
    transcripts: sessions
      .filter((s) => ids.has(s.sessionId) && s.agentId === undefined)
      .map((s) => ({ sessionId: s.sessionId, path: s.path, ...(s.format !== undefined && { format: s.format }) })),
    ...(injection !== undefined && { injection }),
  };
}
