/**
 * What reaches an agent through the hooks, and the ledger that records it, so a person can see why
 * a session was told what it was told: each injection (a session start, a prompt) with its items,
 * why each was chosen and its size in tokens; the task outcomes a session is told about; rejecting a
 * memory ("not useful").
 */
import { z } from 'zod';
import { HOOK_NAMES } from './hook-io.js';
import { ProjectDir, PromptRecallRequest } from './memory.js';

export const InjectionEvent = z.enum(['session-start', 'prompt']);
export type InjectionEvent = z.infer<typeof InjectionEvent>;

/** One item of an injection: a memory, an excerpt of a past session, a session digest, or a task outcome. Stage 9 of 9 of a statement (after `Offer`): what the ledger records. */
export const InjectedItem = z.object({
  kind: z.enum(['memory', 'episode', 'digest', 'state', 'task']),
  id: z.string(),
  score: z.number(),
  /** Why it was chosen: the features that weighed most, or "task outcome". */
  why: z.array(z.string()),
  tokens: z.number(),
  /** The line as injected (a memory's text, a task's line), for the ledger's reader. */
  text: z.string(),
});
export type InjectedItem = z.infer<typeof InjectedItem>;

export const Injection = z.object({
  id: z.string(),
  at: z.string(),
  event: InjectionEvent,
  sessionId: z.string().nullable(),
  project: z.string().nullable(),
  items: z.array(InjectedItem),
  /** The injected text's size. */
  tokens: z.number(),
  /** How long building it took in the daemon, and of that the ledger's part (milliseconds). */
  ms: z.number().optional(),
  ledgerMs: z.number().optional(),
});
export type Injection = z.infer<typeof Injection>;

export const InjectionsQuery = z
  .object({
    session: z.string().min(1).max(200).optional(),
    project: ProjectDir.optional(),
    limit: z.coerce.number().int().min(1).max(10_000).default(100),
  })
  .strict();
export type InjectionsQuery = z.infer<typeof InjectionsQuery>;

export const InjectionsResponse = z.object({
  /** Newest first. */
  injections: z.array(Injection),
  /** Tokens injected per session (all of the ledger, not only this page), newest session first. */
  sessions: z.array(z.object({ sessionId: z.string(), project: z.string().nullable(), injections: z.number(), tokens: z.number(), lastAt: z.string() })),
});
export type InjectionsResponse = z.infer<typeof InjectionsResponse>;

/** The session-start hook: the block (tasks of the project since its last session, then memories) and its ledger entry. */
export const SessionStartRequest = z
  .object({
    project: ProjectDir,
    sessionId: z.string().min(1).max(200).optional(),
    /** startup, resume, clear, compact (Claude Code's `source`). */
    source: z.string().max(40).optional(),
    budget: z.number().int().min(50).max(200_000).optional(),
  })
  .strict();
export type SessionStartRequest = z.infer<typeof SessionStartRequest>;

export const InjectResponse = z.object({
  /** The text to inject ('' when there is nothing). */
  context: z.string(),
  injection: Injection.nullable(),
});
export type InjectResponse = z.infer<typeof InjectResponse>;

/** The prompt hook: matching memories new to the session, and one line per task outcome it was not told yet. */
export const PromptInjectRequest = PromptRecallRequest;
export type PromptInjectRequest = z.infer<typeof PromptInjectRequest>;

/** A hook's raw input, as the agent sent it, answered with what the hook prints (api/hook-io.ts). */
export const HookEvent = z.enum(HOOK_NAMES);
export const HookQuery = z
  .object({
    /** How long the caller waits (ms): the daemon answers within part of it, with what it has by then. */
    timeout: z.coerce.number().int().min(1).max(600_000).optional(),
  })
  .strict();
export const HookMeta = z.object({
  /** The ledger entry the answer is recorded as once written whole to the caller (null: nothing to record). */
  injection: z.string().nullable(),
  /** The daemon's budget ran out: the answer is empty. */
  late: z.boolean(),
});
export type HookMeta = z.infer<typeof HookMeta>;

export const RejectRequest = z
  .object({
    /** The project it is never shown in again (default: the memory's own project). */
    project: ProjectDir.optional(),
    /** The injection it was rejected from (the dashboard's "Not useful"). */
    injection: z.string().max(40).optional(),
  })
  .strict();
export type RejectRequest = z.infer<typeof RejectRequest>;

export const RejectResponse = z.object({ memoryId: z.string(), project: z.string().nullable(), at: z.string() });

export const UnrejectRequest = z
  .object({
    /** Only the rejection in this project (default: every rejection of the memory). */
    project: ProjectDir.optional(),
  })
  .strict();
export type UnrejectRequest = z.infer<typeof UnrejectRequest>;

/** The projects it may be injected in again. */
export const UnrejectResponse = z.object({ memoryId: z.string(), projects: z.array(z.string().nullable()), at: z.string() });

/** A task that ended, as an agent is told of it. */
export const TaskOutcome = z.object({
  id: z.string(),
  /** Name, or the command. */
  label: z.string(),
  cwd: z.string(),
  status: z.string(),
  /** "failed: exit 1", "succeeded", "killed by SIGTERM", "timed out", "skipped: …", "waiting at a prompt". */
  outcome: z.string(),
  failed: z.boolean(),
  durationMs: z.number().nullable(),
  endedAt: z.string().nullable(),
  /** The output's last lines, ANSI stripped, secrets masked. */
  lastLines: z.array(z.string()),
  /** The command that reads the full output. */
  read: z.string(),
});
export type TaskOutcome = z.infer<typeof TaskOutcome>;

export const TasksSinceQuery = z
  .object({
    /** An ISO time, or the cursor of an earlier answer. */
    since: z.string().max(40).optional(),
    cursor: z.string().max(40).optional(),
    project: ProjectDir.optional(),
    limit: z.coerce.number().int().min(1).max(500).default(50),
  })
  .strict();
export type TasksSinceQuery = z.infer<typeof TasksSinceQuery>;

export const TasksSinceResponse = z.object({
  /** Ended after `since` (or the cursor), oldest first. */
  tasks: z.array(TaskOutcome),
  /** Pass back as `cursor` to get only what ends later. */
  cursor: z.string(),
});
export type TasksSinceResponse = z.infer<typeof TasksSinceResponse>;
