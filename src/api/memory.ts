/**
 * Memory requests and responses: remembering, listing and importing memories here; the record, recall
 * and sessions in their own modules, re-exported so that one import serves every memory schema.
 */
import { z } from 'zod';
import { Memory, MemoryScope, MemoryType, ProjectDir, Slot, Source, TeamName } from './memory-record.js';
import { Evidence } from './memory-evidence.js';

export * from './memory-record.js';
export * from './memory-recall.js';
export * from './memory-sessions.js';

export const RememberRequest = z
  .object({
    content: z.string().trim().min(1, 'content is empty').max(4000, 'a memory is at most 4,000 characters'),
    scope: MemoryScope.default('project'),
    project: ProjectDir.optional(),
    team: TeamName.optional(),
    stable: z.boolean().default(false),
    /** Without it, the type follows the kind of the text (a rule, a fact, a decision, the state). */
    type: MemoryType.optional(),
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
  /** What it rests on in its repository, as exported (an export from this machine names the same files). */
  evidence: z.array(Evidence).optional(),
});
export type ImportLine = z.infer<typeof ImportLine>;

export const ImportRequest = z.object({ memories: z.array(ImportLine).max(10_000) }).strict();
export const ImportResponse = z.object({ added: z.number(), duplicates: z.number() });
