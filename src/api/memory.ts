import { posix, win32 } from 'node:path';
import { z } from 'zod';
import { SessionDigest } from './digest.js';
import { Evidence, Reverify } from './memory-evidence.js';

/** Memory ids: `m` + 12 hex digits. Anything else is refused at the boundary. */
export const MemoryId = z.string().regex(/^m[0-9a-f]{12}$/, 'memory ids look like m1a2b3c4d5e6f');

export const MEMORY_TYPES = ['instruction', 'preference', 'fact', 'decision', 'procedure', 'learning', 'note'] as const;
export const MemoryType = z.enum(MEMORY_TYPES);
export type MemoryType = z.infer<typeof MemoryType>;

export const MemoryScope = z.enum(['user', 'project', 'team']);
export type MemoryScope = z.infer<typeof MemoryScope>;

export const Source = z.object({ sessionId: z.string(), messageIds: z.array(z.string()) });
export type Source = z.infer<typeof Source>;

/** A memory's identity (ARCHITECTURE.md): what it is about, which property, and its value (+/- polarity first). */
export const Slot = z.object({ subject: z.string(), attribute: z.string(), value: z.string() });
export type Slot = z.infer<typeof Slot>;

/** What the person did to a memory, as it happened (the record keeps only the latest state). */
export const MemoryEvent = z.object({
  at: z.string(),
  kind: z.enum(['edited', 'pinned', 'forgotten', 'restored']),
  /** `edited`: the text before and after; `restored`: `from` is the state it was brought back from. */
  from: z.string().optional(),
  to: z.string().optional(),
});
export type MemoryEvent = z.infer<typeof MemoryEvent>;

/** The memory record of ARCHITECTURE.md § Contracts. */
export const Memory = z.object({
  id: MemoryId,
  content: z.string().min(1),
  type: MemoryType,
  scope: MemoryScope,
  /** Project key (git root or cwd) for project scope. */
  project: z.string().optional(),
  team: z.string().optional(),
  /** Stable memories do not decay. */
  stable: z.boolean(),
  /** Pinned memories are stable, important and never pruned. */
  pinned: z.boolean().default(false),
  /** Base relevance, 0..1. */
  importance: z.number().min(0).max(1),
  createdAt: z.string(),
  lastSeenAt: z.string(),
  reinforcements: z.number().int().min(0),
  sources: z.array(Source),
  origin: z.enum(['heuristic', 'model', 'manual', 'import']).default('manual'),
  slot: Slot.optional(),
  supersededBy: MemoryId.optional(),
  supersededAt: z.string().optional(),
  archivedAt: z.string().optional(),
  archiveReason: z.string().optional(),
  /** When the person last brought it back (`memories restore`): a re-extraction leaves it alone. */
  restoredAt: z.string().optional(),
  /** When the person last edited its text: neither a re-extraction nor a dream rewrites or merges it away. */
  editedAt: z.string().optional(),
  /** The person's edits, pins, forgets and restores, oldest first (the latest 50). */
  events: z.array(MemoryEvent).optional(),
  /** What it rests on in the repository (memory-evidence.ts); `[]`: looked for, none. */
  evidence: z.array(Evidence).optional(),
  reverify: Reverify.optional(),
});
export type Memory = z.infer<typeof Memory>;

/**
 * A project directory (or any directory inside one): absolute (a Windows path from a transcript
 * counts), because only the client knows the directory a relative path means (its own cwd); the
 * daemon's would be another.
 */
export const ProjectDir = z
  .string()
  .min(1)
  .refine((p) => posix.isAbsolute(p) || win32.isAbsolute(p), {
    message: 'project must be an absolute path (clients resolve a relative one against their own cwd)',
  });

/** Team names and anything that becomes part of a file name: no separators, no dots first. */
export const TeamName = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/, 'team names are letters, digits, - and _ (at most 64)');

export const RememberRequest = z
  .object({
    content: z.string().trim().min(1, 'content is empty').max(4000, 'a memory is at most 4,000 characters'),
    scope: MemoryScope.default('project'),
    project: ProjectDir.optional(),
    team: TeamName.optional(),
    stable: z.boolean().default(false),
    type: MemoryType.default('note'),
    importance: z.number().min(0).max(1).optional(),
  })
  .strict();
export type RememberRequest = z.infer<typeof RememberRequest>;

export const MemoryResponse = z.object({ memory: Memory });
/** `total`: how many matched the filters, of which `memories` is the page asked for (`offset`, `limit`). */
export const MemoryListResponse = z.object({ memories: z.array(Memory), total: z.number().int().optional() });

const Flag = z.enum(['0', '1']);
export const ListMemoriesQuery = z
  .object({
    project: ProjectDir.optional(),
    team: TeamName.optional(),
    /** '1': archived and superseded ones only. */
    archived: Flag.optional(),
    /** '1': every namespace, active and archived (export). */
    all: Flag.optional(),
    /** Search (the BM25 index recall uses), best match first. */
    q: z.string().trim().min(1).max(2000).optional(),
    type: MemoryType.optional(),
    scope: MemoryScope.optional(),
    origin: z.enum(['heuristic', 'model', 'manual', 'import']).optional(),
    pinned: Flag.optional(),
    /** Only those one session gave or reinforced (a source of theirs is this session id). */
    session: z.string().min(1).max(200).optional(),
    /** 'recent': last seen first; default: as stored (oldest first). A query ranks by match. */
    order: z.enum(['stored', 'recent']).optional(),
    offset: z.coerce.number().int().min(0).optional(),
    limit: z.coerce.number().int().min(1).max(1000).optional(),
  })
  .strict();
export type ListMemoriesQuery = z.infer<typeof ListMemoriesQuery>;

export const RecallRequest = z
  .object({
    project: ProjectDir.optional(),
    team: TeamName.optional(),
    query: z.string().max(2000).optional(),
    /** Tokens; the daemon's configured default (2,000) when absent. */
    budget: z.number().int().min(50).max(200_000).optional(),
    /** false: memories only, no excerpts of past sessions. */
    episodes: z.boolean().default(true),
    /** Answer `rendered` too: the block exactly as the session-start hook injects it. */
    render: z.boolean().optional(),
  })
  .strict();
export type RecallRequest = z.infer<typeof RecallRequest>;

/** One line of a recall block: a memory, (with a query) an excerpt of a past session, or a recent session's digest. */
export const RecallItem = z.object({
  kind: z.enum(['memory', 'episode', 'digest']),
  id: z.string(),
  text: z.string(),
  type: z.string(),
  scope: z.string(),
  score: z.number(),
  tokens: z.number(),
  sources: z.array(Source),
  at: z.string().optional(),
  /** A memory's origin: `heuristic` memories are the person's own words, shown quoted. */
  origin: z.enum(['heuristic', 'model', 'manual', 'import']).optional(),
  /** Why what the memory rests on needs checking again (it changed since): shown beside it. */
  reverify: z.string().optional(),
});
export type RecallItem = z.infer<typeof RecallItem>;

export const RecallResponse = z.object({
  project: z.string().nullable(),
  query: z.string().nullable(),
  budget: z.number(),
  tokens: z.number(),
  /** Candidates considered before the budget cut. */
  considered: z.number(),
  items: z.array(RecallItem),
  /** With `render`: the Markdown block the session-start hook injects (at most 10,000 characters). */
  rendered: z.string().optional(),
});
export type RecallResponse = z.infer<typeof RecallResponse>;

/** Recall for one prompt of a session (Claude Code's UserPromptSubmit hook). */
export const PromptRecallRequest = z
  .object({
    /** The prompt as typed; its first 2,000 characters are the query. */
    prompt: z.string().max(1_000_000),
    /** What was injected into this session before is not injected again. */
    sessionId: z.string().min(1).max(200).optional(),
    /** The session's working directory (its project). */
    project: z.string().min(1).optional(),
    /** The injected text's length at most, in characters. */
    maxChars: z.number().int().min(200).max(10_000).default(2000),
  })
  .strict();
export type PromptRecallRequest = z.infer<typeof PromptRecallRequest>;

export const PromptRecallResponse = z.object({
  /** What to inject, best first: only what matches the prompt well enough and is new to the session. */
  items: z.array(RecallItem),
  /** Matches left out because this session already got them. */
  repeated: z.number(),
});
export type PromptRecallResponse = z.infer<typeof PromptRecallResponse>;

export const SearchQuery = z
  .object({
    q: z.string().min(1, 'the query is empty').max(2000),
    project: ProjectDir.optional(),
    limit: z.coerce.number().int().min(1).max(1000).default(10),
  })
  .strict();

export const SearchHit = z.object({
  sessionId: z.string(),
  messageId: z.string(),
  project: z.string().nullable(),
  role: z.string(),
  speaker: z.string().optional(),
  kind: z.string(),
  text: z.string(),
  at: z.string().optional(),
  score: z.number(),
});
export type SearchHit = z.infer<typeof SearchHit>;
export const SearchResponse = z.object({ hits: z.array(SearchHit) });

/** One line of `memories import` (JSONL): at least `content`. */
export const ImportLine = z.object({
  content: z.string().trim().min(1).max(4000),
  id: z.string().optional(),
  project: z.string().min(1).optional(),
  team: TeamName.optional(),
  scope: MemoryScope.optional(),
  type: MemoryType.optional(),
  stable: z.boolean().optional(),
  pinned: z.boolean().optional(),
  importance: z.number().min(0).max(1).optional(),
  createdAt: z.string().datetime({ offset: true }).optional(),
  lastSeenAt: z.string().datetime({ offset: true }).optional(),
  reinforcements: z.number().int().min(0).optional(),
  sources: z.array(Source).optional(),
  supersededBy: z.string().optional(),
  supersededAt: z.string().optional(),
  archivedAt: z.string().optional(),
  archiveReason: z.string().optional(),
  slot: Slot.optional(),
});
export type ImportLine = z.infer<typeof ImportLine>;

export const ImportRequest = z.object({ memories: z.array(ImportLine).max(10_000) }).strict();
export const ImportResponse = z.object({ added: z.number(), duplicates: z.number() });

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
