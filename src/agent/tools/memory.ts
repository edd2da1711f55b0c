/** Memory through the daemon: recall what matters for a query, remember something for later sessions. */
import { z } from 'zod';
import { MEMORY_TYPES, type RecallResponse } from '../../api/memory.js';
import { daemonCall } from '../../client/retrying.js';
import { defineTool } from './types.js';

export function formatRecall(r: RecallResponse): string {
  if (r.items.length === 0) return '';
  return r.items.map((i) => `- ${i.kind === 'episode' ? '[past session] ' : ''}${i.text}`).join('\n');
}

export const recallTool = defineTool({
  name: 'recall',
  description: 'Look up memories (preferences, project facts, decisions, learnings) and excerpts of past sessions relevant to a query, for this project.',
  inputSchema: {
    type: 'object',
    properties: { query: { type: 'string' }, budget: { type: 'integer', description: 'tokens, default 1000' } },
    required: ['query'],
  },
  schema: z.object({ query: z.string().min(1).max(2000), budget: z.number().int().min(50).max(8000).default(1000) }),
  brief: (i) => i.query,
  run: async (i, ctx) => {
    const r = await daemonCall(() => ctx.client.recall({ project: ctx.cwd, query: i.query, budget: i.budget }), true);
    return { content: formatRecall(r) || `(nothing recalled for ${JSON.stringify(i.query)})` };
  },
});

export const rememberTool = defineTool({
  name: 'remember',
  description:
    'Store a memory for later sessions: a durable fact, decision or learning about this project (scope "project", default) or the user (scope "user"). ' +
    'One self-contained sentence; never secrets.',
  inputSchema: {
    type: 'object',
    properties: { content: { type: 'string' }, scope: { type: 'string', enum: ['project', 'user'] }, type: { type: 'string', enum: [...MEMORY_TYPES] } },
    required: ['content'],
  },
  schema: z.object({
    content: z.string().trim().min(1).max(4000),
    scope: z.enum(['project', 'user']).default('project'),
    type: z.enum(MEMORY_TYPES).default('fact'),
  }),
  brief: (i) => i.content,
  run: async (i, ctx) => {
    const m = await daemonCall(
      () => ctx.client.remember({ content: i.content, scope: i.scope, type: i.type, ...(i.scope === 'project' ? { project: ctx.cwd } : {}) }),
      false,
    );
    return { content: `remembered ${m.id} (${m.scope} scope, ${m.type})` };
  },
});

export const MEMORY_TOOLS = [recallTool, rememberTool];
