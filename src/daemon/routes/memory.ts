import { ImportRequest, ListMemoriesQuery, MemoryId, RecallRequest, RememberRequest, SearchQuery } from '../../api/memory.js';
import type { MemoryService } from '../../memory/service.js';
import { parse, type Route } from '../http.js';

export function memoryRoutes(memory: MemoryService): Route[] {
  const id = (params: Record<string, string>) => parse(MemoryId, params.id, 'memory id');
  const action = (name: 'forget' | 'restore' | 'pin'): Route => ({
    method: 'POST',
    path: `/v1/memories/:id/${name}`,
    handler: async ({ params }) => ({ json: { memory: await memory.act(id(params), name) } }),
  });

  return [
    {
      method: 'POST',
      path: '/v1/memories',
      handler: async ({ body }) => {
        const req = parse(RememberRequest, await body(), 'remember request');
        return { status: 201, json: { memory: await memory.remember(req) } };
      },
    },
    {
      method: 'GET',
      path: '/v1/memories',
      handler: async ({ query }) => {
        const q = parse(ListMemoriesQuery, query, 'query');
        return { json: { memories: memory.list({ project: q.project, team: q.team, archived: q.archived === '1', all: q.all === '1' }) } };
      },
    },
    {
      method: 'POST',
      path: '/v1/memories/import',
      handler: async ({ body }) => {
        const req = parse(ImportRequest, await body(), 'import request');
        return { json: await memory.importLines(req.memories) };
      },
    },
    {
      method: 'GET',
      path: '/v1/memories/:id',
      handler: async ({ params }) => ({ json: { memory: memory.store.mustGet(id(params)) } }),
    },
    action('forget'),
    action('restore'),
    action('pin'),
    {
      method: 'POST',
      path: '/v1/recall',
      handler: async ({ body }) => ({ json: memory.recall(parse(RecallRequest, await body(), 'recall request')) }),
    },
    {
      method: 'GET',
      path: '/v1/search',
      handler: async ({ query }) => {
        const q = parse(SearchQuery, query, 'search query');
        return { json: { hits: memory.search(q) } };
      },
    },
  ];
}
