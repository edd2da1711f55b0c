import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { MemoryId, MemoryType, type Memory } from '../../api/memory.js';
import { resolveDir } from '../../project.js';
import { clip, guarded, ok, type WithClient } from '../result.js';

export interface MemoryToolOptions {
  /** The project memories are recalled for and remembered in when the call names none. */
  project: string;
  /** Where a relative `project` resolves (the server's cwd). */
  cwd: string;
}

/** Longest excerpt of a past session one search hit carries. */
const HIT_CHARS = 1000;

const MemoryOut = z.object({
  id: z.string(),
  content: z.string(),
  type: z.string(),
  scope: z.string(),
  project: z.string().optional(),
  stable: z.boolean(),
  importance: z.number(),
  created_at: z.string(),
  archived_at: z.string().optional(),
});
type MemoryOut = z.infer<typeof MemoryOut>;

function memoryOut(m: Memory): MemoryOut {
  return {
    id: m.id,
    content: m.content,
    type: m.type,
    scope: m.scope,
    ...(m.project ? { project: m.project } : {}),
    stable: m.stable,
    importance: m.importance,
    created_at: m.createdAt,
    ...(m.archivedAt ? { archived_at: m.archivedAt } : {}),
  };
}

export function registerMemoryTools(server: McpServer, api: WithClient, opts: MemoryToolOptions): void {
  server.registerTool(
    'recall',
    {
      title: 'Recall memories',
      description:
        'Recall the memories relevant to a project (preferences, facts, decisions, procedures, learnings) within a token ' +
        `budget, best first. With a query, ranks by it and adds matching excerpts of past sessions. project defaults to ${opts.project}.`,
      inputSchema: {
        project: z
          .string()
          .min(1)
          .optional()
          .describe("project directory (its git root or any directory in it; a relative one resolves against the server's cwd)"),
        query: z.string().max(2000).optional().describe('what you are looking for'),
        budget: z.number().int().min(50).max(200_000).optional().describe('token budget of the block (default 2000)'),
      },
      outputSchema: {
        project: z.string().nullable(),
        query: z.string().nullable(),
        budget: z.number(),
        tokens: z.number(),
        considered: z.number(),
        items: z.array(
          z.object({ kind: z.string(), id: z.string(), text: z.string(), type: z.string(), scope: z.string(), score: z.number(), at: z.string().optional() }),
        ),
      },
    },
    guarded(async (a) => {
      const r = await api((c) =>
        c.recall({
          project: a.project ? resolveDir(a.project, opts.cwd) : opts.project,
          ...(a.query ? { query: a.query } : {}),
          ...(a.budget !== undefined ? { budget: a.budget } : {}),
        }),
      );
      const items = r.items.map((i) => ({ kind: i.kind, id: i.id, text: i.text, type: i.type, scope: i.scope, score: i.score, ...(i.at ? { at: i.at } : {}) }));
      const where = r.project ?? 'no project';
      const text =
        items.length === 0
          ? `no memories recalled for ${where}${r.query ? ` matching "${r.query}"` : ''}`
          : [
              `${items.length} memories for ${where} (${r.tokens} of ${r.budget} tokens, ${r.considered} considered):`,
              ...items.map((i) => (i.kind === 'episode' ? `- [past session${i.at ? ` ${i.at}` : ''}] ${i.text}` : `- [${i.type}] ${i.text} (${i.id})`)),
            ].join('\n');
      return ok({ project: r.project, query: r.query, budget: r.budget, tokens: r.tokens, considered: r.considered, items }, text);
    }),
  );

  server.registerTool(
    'remember',
    {
      title: 'Remember something',
      description:
        'Store a memory for future sessions: a preference, a fact about the project, a decision and its reason, a procedure, ' +
        `a learning. scope "project" (default) ties it to project (default ${opts.project}); "user" applies everywhere. ` +
        'stable memories do not fade with time.',
      inputSchema: {
        content: z.string().trim().min(1, 'content is empty').max(4000, 'a memory is at most 4,000 characters'),
        project: z.string().min(1).optional().describe("project directory (a relative one resolves against the server's cwd)"),
        scope: z.enum(['project', 'user']).optional(),
        stable: z.boolean().optional(),
        type: MemoryType.optional(),
      },
      outputSchema: MemoryOut.shape,
    },
    guarded(async (a) => {
      const scope = a.scope ?? 'project';
      const m = await api((c) =>
        c.remember({
          content: a.content,
          scope,
          ...(scope === 'project' ? { project: a.project ? resolveDir(a.project, opts.cwd) : opts.project } : {}),
          ...(a.stable !== undefined ? { stable: a.stable } : {}),
          ...(a.type ? { type: a.type } : {}),
        }),
      );
      const where = m.scope === 'project' && m.project ? `project ${m.project}` : m.scope;
      return ok(memoryOut(m), `remembered ${m.id} (${m.type}, ${where}${m.stable ? ', stable' : ''}): ${clip(m.content, 200)}`);
    }),
  );

  server.registerTool(
    'forget',
    {
      title: 'Forget a memory',
      description: 'Archive a memory so it is no longer recalled (it is kept, marked archived, and can be restored).',
      inputSchema: { id: MemoryId.describe('memory id, e.g. m1a2b3c4d5e6f') },
      outputSchema: MemoryOut.shape,
    },
    guarded(async (a) => {
      const m = await api((c) => c.memoryAction(a.id, 'forget'));
      return ok(memoryOut(m), `forgot ${m.id}: ${clip(m.content, 200)} (archived; it is no longer recalled)`);
    }),
  );

  server.registerTool(
    'search_sessions',
    {
      title: 'Search past sessions',
      description: 'Full-text search over the messages of past agent sessions (Claude Code, Codex, nightshift agents), best first.',
      inputSchema: {
        query: z.string().min(1, 'the query is empty').max(2000),
        project: z.string().min(1).optional().describe('only sessions of this project (default: all projects)'),
        limit: z.number().int().min(1).max(50).optional().describe('hits to return (default 10)'),
      },
      outputSchema: {
        hits: z.array(
          z.object({
            session_id: z.string(),
            message_id: z.string(),
            project: z.string().nullable(),
            role: z.string(),
            kind: z.string(),
            text: z.string(),
            at: z.string().optional(),
            score: z.number(),
          }),
        ),
      },
    },
    guarded(async (a) => {
      const found = await api((c) => c.search({ q: a.query, ...(a.project ? { project: resolveDir(a.project, opts.cwd) } : {}), limit: a.limit ?? 10 }));
      const hits = found.map((h) => ({
        session_id: h.sessionId,
        message_id: h.messageId,
        project: h.project,
        role: h.role,
        kind: h.kind,
        text: clip(h.text, HIT_CHARS),
        ...(h.at ? { at: h.at } : {}),
        score: h.score,
      }));
      const text =
        hits.length === 0
          ? `no past session matches "${a.query}"`
          : hits
              .map(
                (h) =>
                  `- session ${h.session_id}${h.at ? ` ${h.at}` : ''}${h.project ? ` (${h.project})` : ''} ${h.role}: ${clip(h.text.replace(/\s+/g, ' '), 300)}`,
              )
              .join('\n');
      return ok({ hits }, text);
    }),
  );
}
