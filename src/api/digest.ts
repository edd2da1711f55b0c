/** A session's digest: what it did, in short, with the ids of the messages each part comes from. */
import { z } from 'zod';

export const DIGEST_COMMAND_KINDS = ['test', 'build', 'lint', 'commit', 'push', 'pr', 'deploy', 'install'] as const;
export const DigestCommandKind = z.enum(DIGEST_COMMAND_KINDS);
export type DigestCommandKind = z.infer<typeof DigestCommandKind>;

const DigestText = z.object({ text: z.string(), messageId: z.string(), at: z.string().optional() });

/**
 * What a session did, in short, with the ids of the messages each part comes from. Built as the
 * transcript is ingested and updated by each incremental ingest.
 */
export const SessionDigest = z.object({
  version: z.literal(1),
  /** The session file's key (SessionRecord.key). */
  key: z.string(),
  sessionId: z.string(),
  agentId: z.string().optional(),
  project: z.string().nullable(),
  firstAt: z.string().optional(),
  lastAt: z.string().optional(),
  messages: z.number(),
  /** The first requests the person typed (clipped). */
  asked: z.array(DigestText),
  /** Files written by Edit/Write/MultiEdit/NotebookEdit/apply_patch calls that did not fail. */
  files: z.array(z.object({ path: z.string(), edits: z.number(), messageIds: z.array(z.string()) })),
  /**
   * Tests, builds, linters, commits, pushes, PRs, deploys and installs run, grouped by command. A run
   * is a call whose result came back with an outcome; `failures` counts the runs that failed.
   */
  commands: z.array(
    z.object({
      command: z.string(),
      kind: DigestCommandKind,
      runs: z.number(),
      failures: z.number(),
      /** How the last run with a known outcome ended. */
      ok: z.boolean().optional(),
      exitCode: z.number().optional(),
      messageIds: z.array(z.string()),
      at: z.string().optional(),
    }),
  ),
  /**
   * Calls of such commands that were declined (the person rejected or cancelled them at the prompt or
   * stopped them while they ran, or a permission rule denied them): never runs. Absent from digests
   * written before it existed.
   */
  declined: z.array(z.object({ command: z.string(), kind: DigestCommandKind, count: z.number(), messageId: z.string(), at: z.string().optional() })).optional(),
  /** Failed commands, and whether a later run of the same command (or kind) succeeded. */
  errors: z.array(
    z.object({
      command: z.string(),
      text: z.string(),
      count: z.number(),
      messageId: z.string(),
      at: z.string().optional(),
      fixed: z.boolean(),
      fixedBy: z.string().optional(),
    }),
  ),
  commits: z.array(z.object({ message: z.string().optional(), messageId: z.string(), at: z.string().optional() })),
  pushes: z.array(z.object({ command: z.string(), messageId: z.string(), at: z.string().optional() })),
  /** "Pending Tasks" of the latest compaction summary. */
  pendingTasks: z.array(DigestText),
  /** The agent's last question, while no answer followed. */
  question: DigestText.optional(),
  /** A plan still awaiting the person's verdict. */
  plan: DigestText.optional(),
  /** The person's last move was to interrupt the agent. */
  interrupted: z.boolean(),
  /** How it ended, in short phrases ("tests passing", "2 commits", "pushed", "interrupted"). */
  outcome: z.array(z.string()),
  /** What was left open: pending tasks, an unanswered question, a plan without a verdict. */
  open: z.array(z.object({ text: z.string(), source: z.enum(['pending-tasks', 'question', 'plan']), messageId: z.string() })),
  updatedAt: z.string(),
});
export type SessionDigest = z.infer<typeof SessionDigest>;
