/**
 * The memory tools, defined once (the task tools' shape, client/task-tools): recall, remember,
 * forget, and search past sessions. The MCP server offers all four, the agent the ones it names;
 * a call that names no project uses the host's (`host.project`, else `host.cwd`).
 */
import { z } from 'zod';
import { MemoryId, MemoryType, RecallResponse, type Memory } from '../../api/memory.js';
import { resolveDir } from '../../project.js';
import { namedTool } from '../task-tools/define.js';
import type { TaskTool, TaskToolHost } from '../task-tools/tools.js';

export interface MemoryToolNames {
  recall?: string;
  remember?: string;
  forget?: string;
  search?: string;
}

export interface MemoryToolOptions {
  names: MemoryToolNames;
  /** Recall's token budget when the call gives none (default: the daemon's), and the most a call may ask. */
  budget?: { default: number; max: number };
}

/** Longest excerpt of a past session one search hit carries. */
const HIT_CHARS = 1000;
const BUDGET_MAX = 200_000;

/** Cuts long text for a rendering, saying how much was left out. */
export function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}… [${text.length - max} more characters]`;
}

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

function memoryOut(m: Memory): z.infer<typeof MemoryOut> {
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

const RecallItemOut = z.object({
  kind: z.string(),
  id: z.string(),
  text: z.string(),
  type: z.string(),
  scope: z.string(),
  score: z.number(),
  at: z.string().optional(),
});

/** The recall as the API answers it, items cut to what a model needs. */
const RecallAnswer = RecallResponse.pick({ project: true, query: true, budget: true, tokens: true, considered: true }).extend({
  items: z.array(RecallItemOut),
});

function recallText(r: RecallResponse, items: z.infer<typeof RecallItemOut>[]): string {
  const where = r.project ?? 'no project';
  if (items.length === 0) return `no memories recalled for ${where}${r.query ? ` matching "${r.query}"` : ''}`;
  return [
    `${items.length} memories for ${where} (${r.tokens} of ${r.budget} tokens, ${r.considered} considered):`,
    ...items.map((i) => (i.kind === 'episode' ? `- [past session${i.at ? ` ${i.at}` : ''}] ${i.text}` : `- [${i.type}] ${i.text} (${i.id})`)),
  ].join('\n');
}

/** A project directory; a relative one resolves against the host's cwd. */
const ProjectInput = z.string().min(1).optional().describe('project directory (default: the current one)');

const projectOf = (given: string | undefined, host: TaskToolHost) => (given ? resolveDir(given, host.cwd) : (host.project ?? host.cwd));

export function memoryTools(o: MemoryToolOptions): TaskTool[] {
  const n = o.names;
  const budget = o.budget;
  const budgetWords = budget ? `default ${budget.default}` : 'default 2000';
  return [
    ...namedTool(n.recall, {
      title: 'Recall memories',
      description:
        'Recall memories (preferences, facts, decisions, procedures, learnings) for a project within a token budget, best first; ' +
        'with a query, ranked by it, plus matching excerpts of past sessions.',
      input: {
        project: ProjectInput,
        query: z.string().max(2000).optional(),
        budget: z
          .number()
          .int()
          .min(50)
          .max(budget?.max ?? BUDGET_MAX)
          .optional()
          .describe(`tokens (${budgetWords})`),
      },
      output: RecallAnswer.shape,
      brief: (i) => i.query ?? i.project ?? 'this project',
      run: async (i, host) => {
        const asked = i.budget ?? budget?.default;
        const r = await host.call(
          (c) => c.recall({ project: projectOf(i.project, host), ...(i.query ? { query: i.query } : {}), ...(asked !== undefined ? { budget: asked } : {}) }),
          true,
        );
        const items = r.items.map((x) => ({
          kind: x.kind,
          id: x.id,
          text: x.text,
          type: x.type,
          scope: x.scope,
          score: x.score,
          ...(x.at ? { at: x.at } : {}),
        }));
        return {
          text: recallText(r, items),
          structured: { project: r.project, query: r.query, budget: r.budget, tokens: r.tokens, considered: r.considered, items },
        };
      },
    }),

    ...namedTool(n.remember, {
      title: 'Remember something',
      description:
        'Store a memory for later sessions: a preference, project fact, decision, procedure or learning, as one self-contained statement; never secrets. ' +
        'scope: project (default) or user (everywhere); stable ones never fade.',
      input: {
        content: z.string().trim().min(1, 'content is empty').max(4000, 'a memory is at most 4,000 characters'),
        project: ProjectInput,
        scope: z.enum(['project', 'user']).optional(),
        stable: z.boolean().optional(),
        type: MemoryType.optional(),
      },
      output: MemoryOut.shape,
      brief: (i) => i.content,
      run: async (i, host) => {
        const scope = i.scope ?? 'project';
        const m = await host.call((c) =>
          c.remember({
            content: i.content,
            scope,
            ...(scope === 'project' ? { project: projectOf(i.project, host) } : {}),
            ...(i.stable !== undefined ? { stable: i.stable } : {}),
            ...(i.type ? { type: i.type } : {}),
          }),
        );
        const where = m.scope === 'project' && m.project ? `project ${m.project}` : m.scope;
        return { text: `remembered ${m.id} (${m.type}, ${where}${m.stable ? ', stable' : ''}): ${clip(m.content, 200)}`, structured: memoryOut(m) };
      },
    }),

    ...namedTool(n.forget, {
      title: 'Forget a memory',
      description: 'Archive a memory so it is no longer recalled (it is kept, marked archived, and can be restored).',
      input: { id: MemoryId.describe('memory id, e.g. m1a2b3c4d5e6f') },
      output: MemoryOut.shape,
      brief: (i) => i.id,
      run: async (i, host) => {
        const m = await host.call((c) => c.memoryAction(i.id, 'forget'));
        return { text: `forgot ${m.id}: ${clip(m.content, 200)} (archived; it is no longer recalled)`, structured: memoryOut(m) };
      },
    }),

    ...namedTool(n.search, {
      title: 'Search past sessions',
      description: 'Full-text search over the messages of past agent sessions (Claude Code, Codex, nightshift agents), best first.',
      input: {
        query: z.string().min(1, 'the query is empty').max(2000),
        project: z.string().min(1).optional().describe('only sessions of this project (default: all projects)'),
        limit: z.number().int().min(1).max(50).optional().describe('hits to return (default 10)'),
      },
      output: {
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
      brief: (i) => i.query,
      run: async (i, host) => {
        const found = await host.call(
          (c) => c.search({ q: i.query, ...(i.project ? { project: resolveDir(i.project, host.cwd) } : {}), limit: i.limit ?? 10 }),
          true,
        );
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
        const line = (h: (typeof hits)[number]) =>
          `- session ${h.session_id}${h.at ? ` ${h.at}` : ''}${h.project ? ` (${h.project})` : ''} ${h.role}: ${clip(h.text.replace(/\s+/g, ' '), 300)}`;
        return { text: hits.length === 0 ? `no past session matches "${i.query}"` : hits.map(line).join('\n'), structured: { hits } };
      },
    }),
  ];
}
