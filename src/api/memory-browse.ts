/** Schemas of the endpoints that browse memories and sessions: edit, history, provenance, projects, session search. */
import { z } from 'zod';
import { Memory, ProjectDir, SessionRecord } from './memory.js';

export const EditMemoryRequest = z.object({ content: z.string().trim().min(1, 'content is empty').max(4000, 'a memory is at most 4,000 characters') }).strict();

/** One thing that happened to a memory. `at` is absent when nothing recorded when it happened. */
export const HistoryEvent = z.object({
  at: z.string().optional(),
  kind: z.enum([
    'created',
    'reinforced',
    'edited',
    'pinned',
    'forgotten',
    'archived',
    'restored',
    'superseded',
    'supersedes',
    'merged',
    'absorbed',
    'masked',
    'rejected',
    'unrejected',
  ]),
  /** created: how it was made. */
  origin: Memory.shape.origin.optional(),
  /** created, reinforced: the session it came from (the time is that session's last message). */
  sessionId: z.string().optional(),
  messageIds: z.array(z.string()).optional(),
  /** edited: the text before and after. */
  from: z.string().optional(),
  to: z.string().optional(),
  reason: z.string().optional(),
  /** superseded / merged: the memory that took its place; supersedes / absorbed: the one it replaced. */
  memoryId: z.string().optional(),
  /** That other memory's text, or null when it is no longer stored. */
  text: z.string().nullable().optional(),
  /** rejected / unrejected: the project it was kept out of (null: no project). */
  project: z.string().nullable().optional(),
  /** The dream that did it. */
  dreamId: z.string().optional(),
});
export type HistoryEvent = z.infer<typeof HistoryEvent>;
export const MemoryHistoryResponse = z.object({ memory: Memory, events: z.array(HistoryEvent) });
export type MemoryHistoryResponse = z.infer<typeof MemoryHistoryResponse>;

/** A message next to a source message (for context), from the session's episodes. */
const Neighbour = z.object({ id: z.string(), role: z.string(), kind: z.string(), at: z.string().optional(), text: z.string() });

export const SourceMessage = z.object({
  id: z.string(),
  /** False: the message could not be found (the transcript changed or is gone, or it was never indexed). */
  found: z.boolean(),
  role: z.string().optional(),
  kind: z.string().optional(),
  at: z.string().optional(),
  text: z.string().optional(),
  /** Where it is in the transcript: 1-based line (JSONL) or element (JSON array), and the byte offset of its line. */
  line: z.number().int().optional(),
  offset: z.number().int().optional(),
  before: z.array(Neighbour),
  after: z.array(Neighbour),
});
export type SourceMessage = z.infer<typeof SourceMessage>;

export const MemorySource = z.object({
  sessionId: z.string(),
  /** The session's own transcript record (null: no session of that id was ever ingested, e.g. a manual memory). */
  session: SessionRecord.nullable(),
  messages: z.array(SourceMessage),
  /** Why the transcript could not be read (moved, deleted, unreadable); the messages then come from the episodes alone. */
  error: z.object({ code: z.string(), message: z.string() }).optional(),
});
export type MemorySource = z.infer<typeof MemorySource>;
export const MemorySourcesResponse = z.object({ memory: Memory, sources: z.array(MemorySource) });
export type MemorySourcesResponse = z.infer<typeof MemorySourcesResponse>;

const Counts = z.object({ active: z.number(), archived: z.number(), lastActivity: z.string().nullable() });
export const ProjectsResponse = z.object({
  /** Every project with memories or sessions, most recently active first. */
  projects: z.array(Counts.extend({ project: z.string(), sessions: z.number() })),
  user: Counts,
  teams: z.array(Counts.extend({ team: z.string() })),
});
export type ProjectsResponse = z.infer<typeof ProjectsResponse>;

export const SessionListQuery = z
  .object({
    /** Only the sessions of this project (a directory in it). */
    project: ProjectDir.optional(),
    /** Search what was said and done (the episodic index behind /v1/search), grouped by session, best first. */
    q: z.string().trim().min(1).max(2000).optional(),
    /** 'recent': latest message first; default: as ingested (oldest first). A query ranks by match. */
    order: z.enum(['ingested', 'recent']).optional(),
    offset: z.coerce.number().int().min(0).optional(),
    limit: z.coerce.number().int().min(1).max(1000).optional(),
  })
  .strict();
export type SessionListQuery = z.infer<typeof SessionListQuery>;
