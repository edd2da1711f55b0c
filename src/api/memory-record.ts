/**
 * The memory record, the one shape every surface reads and writes, and the names every memory
 * request uses: ids, types, scopes, sources, slots, project directories, team names.
 */
import { posix, win32 } from 'node:path';
import { z } from 'zod';
import { Evidence, Reverify } from './memory-evidence.js';

/** Memory ids: `m` + 12 hex digits. Anything else is refused at the boundary. */
export const MemoryId = z.string().regex(/^m[0-9a-f]{12}$/, 'memory ids look like m1a2b3c4d5e6f');

export const MEMORY_TYPES = ['instruction', 'preference', 'fact', 'decision', 'procedure', 'learning', 'state', 'note'] as const;
export const MemoryType = z.enum(MEMORY_TYPES);
export type MemoryType = z.infer<typeof MemoryType>;

export const MemoryScope = z.enum(['user', 'project', 'team']);
export type MemoryScope = z.infer<typeof MemoryScope>;

export const Source = z.object({
  sessionId: z.string(),
  messageIds: z.array(z.string()),
  /** Where in the session it was said (typed, answer, plan, summary-…): only the person's own words make a rule theirs. */
  said: z.string().max(40).optional(),
});
export type Source = z.infer<typeof Source>;

/**
 * A memory's identity, by which a restatement, a change and a contradiction are told apart: what it
 * is about, which property, and its value (+/- polarity first).
 */
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

/**
 * Where the person rejected a memory ("not useful": kept out of that project's injections), as the
 * daemon shows a memory; never stored with it (the injection ledger keeps rejections). `live`:
 * false once a later session reinforced it, which lifts the rejection.
 */
export const RejectionMark = z.object({ project: z.string().nullable(), at: z.string(), live: z.boolean() });
export type RejectionMark = z.infer<typeof RejectionMark>;

/**
 * The memory record: what the daemon stores, the API answers and the dashboard shows. Stage 6 of 9
 * of a statement (after `Incoming`, before `RecallItem`). Its words are `content`, the one shape not
 * `text`: stored homes and clients read the record by that name.
 */
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
  /** Shown, not stored: see RejectionMark. */
  rejected: z.array(RejectionMark).optional(),
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
