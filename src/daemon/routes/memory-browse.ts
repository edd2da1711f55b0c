import type { DreamReports } from '../../dream/reports.js';
import { memoryHistory } from '../../memory/browse/history.js';
import { projects } from '../../memory/browse/projects.js';
import { memorySources } from '../../memory/browse/provenance.js';
import type { MemoryService } from '../../memory/service.js';
import { listSessions } from '../../memory/browse/session-list.js';
import type { Handlers } from '../http.js';

type BrowseHandlers = Pick<Handlers, 'projects' | 'editMemory' | 'memoryHistory' | 'memorySources' | 'sessions'>;

/** What the dashboard (and the CLI) browse: projects, a memory's edit, history and sources, sessions. */
export function memoryBrowseHandlers(memory: MemoryService, reports: DreamReports): BrowseHandlers {
  return {
    projects: async () => ({ json: projects(memory.store, memory.sessions.list()) }),
    editMemory: async ({ params, body }) => ({ json: { memory: await memory.edit(params.id, body.content) } }),
    memoryHistory: async ({ params }) => ({
      json: { memory: memory.store.mustGet(params.id), events: memoryHistory(memory.store, params.id, memory.sessions.list(), reports.list()) },
    }),
    memorySources: async ({ params }) => {
      const m = memory.store.mustGet(params.id);
      return { json: { memory: m, sources: await memorySources(m, memory.sessions, memory.episodes) } };
    },
    sessions: async ({ query }) => ({ json: listSessions(memory.sessions, memory.episodes, query, memory.project(query.project)) }),
  };
}
