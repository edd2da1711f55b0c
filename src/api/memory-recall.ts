/** Recall (the block a session starts with, or one prompt's) and search over past sessions. */
import { z } from 'zod';
import { ProjectDir, Source, TeamName } from './memory-record.js';

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

/**
 * One line of a recall block: a memory, (with a query) an excerpt of a past session, a recent session's
 * digest, or a line of the project's current state from the agent's record (`type` built, open or found).
 * Stage 7 of 9 of a statement (after `Memory`, before `Offer` in memory/recall/select.ts).
 */
export const RecallItem = z.object({
  kind: z.enum(['memory', 'episode', 'digest', 'state']),
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
