/**
 * "Not useful" and its undo: `rejectMemory` keeps a memory out of a project's injections,
 * `unrejectMemory` lets it back; both are on disk before they answer. A memory the daemon shows
 * carries its rejections (`rejected`), and its history their times.
 */
import { statSync } from 'node:fs';
import type { HistoryEvent } from '../../api/memory-browse.js';
import type { Memory } from '../../api/memory.js';
import { nowMs } from '../../clock.js';
import { AppError } from '../../errors.js';
import type { InjectionLedger } from '../../inject/ledger.js';
import { isRejectionLive, rejectionOf } from '../../inject/rejections.js';
import type { MemoryService } from '../../memory/index.js';
import { isWindowsPath, projectKey } from '../../project.js';
import type { Handlers } from '../http.js';

/**
 * The project a rejection names, from a directory that must exist: a path that does not would
 * otherwise resolve to the repository of a directory above it (a typo in the current repository
 * is that repository).
 */
function projectOf(dir: string): string {
  if (isWindowsPath(dir)) return dir;
  let isDir = false;
  try {
    isDir = statSync(dir).isDirectory();
  } catch {
    // no such directory: said below
  }
  if (!isDir) throw new AppError('bad_request', `project ${dir}: no such directory (give a directory of the project)`);
  return projectKey(dir);
}

export function rejectionHandlers(memory: MemoryService, ledger: InjectionLedger): Pick<Handlers, 'rejectMemory' | 'unrejectMemory'> {
  return {
    rejectMemory: async ({ params, body }) => {
      const m = memory.store.mustGet(params.id);
      const from = body.injection === undefined ? undefined : ledger.get(body.injection);
      if (body.injection !== undefined && from === undefined) throw new AppError('not_found', `no injection ${body.injection} (see \`nightshift injections\`)`);
      const project = body.project ? projectOf(body.project) : from ? from.project : (m.project ?? null);
      const r = rejectionOf(m, project, new Date(nowMs()).toISOString(), memory.sessions.list(), body.injection);
      ledger.reject(r);
      return { json: { memoryId: m.id, project, at: r.at } };
    },
    unrejectMemory: async ({ params, body }) => {
      const m = memory.store.mustGet(params.id);
      const project = body.project ? projectOf(body.project) : undefined;
      const at = new Date(nowMs()).toISOString();
      const lifted = ledger.unreject(m.id, project, at);
      if (lifted.length === 0)
        throw new AppError('not_found', `${m.id} is not rejected${project !== undefined ? ` in ${project}` : ''} (see \`nightshift memories show ${m.id}\`)`);
      return { json: { memoryId: m.id, projects: lifted.map((r) => r.project), at } };
    },
  };
}

/** The memory as shown: with where it was rejected, when it was. */
export function withRejections(m: Memory, ledger: InjectionLedger): Memory {
  const rs = ledger.rejectionsOf(m.id);
  if (rs.length === 0) return m;
  return { ...m, rejected: rs.map((r) => ({ project: r.project, at: r.at, live: isRejectionLive(r, m.reinforcements) })) };
}

export function rejectionHistory(id: string, ledger: InjectionLedger): HistoryEvent[] {
  return ledger.rejectionEvents(id).map((e) => ({ at: e.at, kind: e.kind, project: e.project }));
}
