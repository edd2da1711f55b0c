/** Transcripts ingested into memories, and the sessions the daemon knows of. */
import { z } from 'zod';
import { SessionDigest } from './digest.js';
import { SearchHit } from './memory-recall.js';
import { Memory, ProjectDir } from './memory-record.js';

export const TranscriptFormatName = z.enum(['claude-code', 'codex', 'messages']);

export const IngestRequest = z
  .object({
    path: z.string().min(1),
    format: TranscriptFormatName.optional(),
    project: ProjectDir.optional(),
    /** The session's working directory when the transcript does not say (hooks pass it). */
    cwd: z.string().min(1).optional(),
    sessionId: z.string().min(1).max(200).optional(),
    /** false: answer at once (202) and ingest in the background. */
    wait: z.boolean().default(true),
    /** What ended the session (hook `reason`), for the record. */
    reason: z.string().max(200).optional(),
    /**
     * Read the whole transcript again with the current extractor: the memories only this file
     * gave (and the person never touched) are archived, its episodes and digest rewritten.
     */
    reingest: z.boolean().optional(),
    /**
     * The transcript the caller will ingest next, the same way (a caller of several files): it is
     * read while this one is extracted. A hint: a path that cannot be read is reported by its own
     * request.
     */
    next: z.string().min(1).optional(),
  })
  .strict();
export type IngestRequest = z.infer<typeof IngestRequest>;

export const IngestSummary = z.object({
  sessionId: z.string(),
  path: z.string(),
  format: TranscriptFormatName,
  project: z.string().nullable(),
  /** Nothing new since the last ingest. */
  unchanged: z.boolean(),
  fromOffset: z.number(),
  toOffset: z.number(),
  messages: z.number(),
  malformedLines: z.number(),
  extractor: z.enum(['heuristic', 'model']),
  /** Why the model extractor fell back to the heuristic one. */
  fallback: z.string().optional(),
  tokens: z.object({ input: z.number(), output: z.number() }).optional(),
  /** What the model call cost, when the backend says (the Claude CLI does). */
  costUsd: z.number().optional(),
  secretsMasked: z.number(),
  added: z.array(Memory),
  reinforced: z.array(Memory),
  superseded: z.array(Memory),
  /** A re-ingest: memories archived as replaced by the re-extraction, and those that only lost this file as a source. */
  replaced: z.array(Memory).optional(),
  detached: z.array(Memory).optional(),
  durationMs: z.number(),
});
export type IngestSummary = z.infer<typeof IngestSummary>;

export const IngestResponse = z.object({ queued: z.boolean(), summary: IngestSummary.optional() });

export const SessionState = z.enum(['pending', 'ingesting', 'ingested', 'failed']);

export const SessionRecord = z.object({
  key: z.string(),
  sessionId: z.string(),
  /** A subagent or compaction sidechain file of the session `sessionId`: its agent id. */
  agentId: z.string().optional(),
  path: z.string(),
  format: TranscriptFormatName.optional(),
  project: z.string().nullable(),
  state: SessionState,
  offset: z.number(),
  size: z.number(),
  firstMessageAt: z.string().optional(),
  lastMessageAt: z.string().optional(),
  ingestedAt: z.string().optional(),
  messages: z.number(),
  malformedLines: z.number(),
  memories: z.number(),
  tokens: z.object({ input: z.number(), output: z.number() }),
  /** USD the model calls of this session cost, summed over its ingests, when the backend says. */
  costUsd: z.number().optional(),
  /** Who extracted the last ingest, and why the heuristics answered for the model (`daily_budget: …`). */
  extractor: z.enum(['heuristic', 'model']).optional(),
  fallback: z.string().optional(),
  error: z.string().optional(),
  reason: z.string().optional(),
});
export type SessionRecord = z.infer<typeof SessionRecord>;
/** `total`: sessions that matched, of which `sessions` is the page; with `q`, `matches` (same order) says why each matched. */
export const SessionListResponse = z.object({
  sessions: z.array(SessionRecord),
  total: z.number().int().optional(),
  matches: z.array(z.object({ sessionId: z.string(), score: z.number(), hits: z.array(SearchHit) })).optional(),
});

export const SessionShowResponse = z.object({
  session: SessionRecord,
  digest: SessionDigest.nullable(),
  /** Subagent and compaction sidechain files of the same session. */
  sidechains: z.array(z.object({ session: SessionRecord, digest: SessionDigest.nullable() })),
});
export type SessionShowResponse = z.infer<typeof SessionShowResponse>;

export const ReextractRequest = z
  .object({
    project: ProjectDir,
    /** Only the sessions whose last extraction fell back to the heuristics (e.g. the daily budget was spent). */
    fallenBack: z.boolean().optional(),
  })
  .strict();
export const ReextractResponse = z.object({
  project: z.string(),
  sessions: z.array(IngestSummary),
  /** Sessions that could not be read again (a transcript since moved or deleted). */
  skipped: z.array(z.object({ path: z.string(), error: z.string() })),
});
export type ReextractResponse = z.infer<typeof ReextractResponse>;
