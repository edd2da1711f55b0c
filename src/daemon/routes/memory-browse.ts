import type { DreamReports } from '../../dream/reports.js';
import type { InjectionLedger } from '../../inject/ledger.js';
import type { MemoryService } from '../../memory/index.js';
import type { Handlers } from '../http.js';
import { rejectionHistory, withRejections } from './rejections.js';

type BrowseHandlers = Pick<Handlers, 'projects' | 'editMemory' | 'memoryHistory' | 'memorySources' | 'sessions'>;

/**
 * What the dashboard (and the CLI) browse: projects, a memory's edit, history and sources, sessions;
 * all through the memory service, with the rejections the injection ledger holds.
 */
export function memoryBrowseHandlers(memory: MemoryService, reports: DreamReports, ledger: InjectionLedger): BrowseHandlers {
  return {
    projects: async () => ({ json: memory.browse.projects() }),
    editMemory: async ({ params, body }) => ({ json: { memory: await memory.edit(params.id, body.content) } }),
    memoryHistory: async ({ params }) => {
      const h = memory.browse.history(params.id, reports.list(), rejectionHistory(params.id, ledger));
      return { json: { ...h, memory: withRejections(h.memory, ledger) } };
    },
    memorySources: async ({ params }) => {
      const r = await memory.browse.sources(params.id);
      return { json: { ...r, memory: withRejections(r.memory, ledger) } };
    },
    sessions: async ({ query }) => ({ json: memory.browse.sessionList(query, memory.project(query.project)) }),
  };
}
