import type { DreamReports } from '../../dream/reports.js';
import type { MemoryService } from '../../memory/service.js';
import type { Handlers } from '../http.js';

type BrowseHandlers = Pick<Handlers, 'projects' | 'editMemory' | 'memoryHistory' | 'memorySources' | 'sessions'>;

/** What the dashboard (and the CLI) browse: projects, a memory's edit, history and sources, sessions; all through the memory service. */
export function memoryBrowseHandlers(memory: MemoryService, reports: DreamReports): BrowseHandlers {
  return {
    projects: async () => ({ json: memory.browse.projects() }),
    editMemory: async ({ params, body }) => ({ json: { memory: await memory.edit(params.id, body.content) } }),
    memoryHistory: async ({ params }) => ({ json: memory.browse.history(params.id, reports.list()) }),
    memorySources: async ({ params }) => ({ json: await memory.browse.sources(params.id) }),
    sessions: async ({ query }) => ({ json: memory.browse.sessionList(query, memory.project(query.project)) }),
  };
}
