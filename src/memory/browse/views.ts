/**
 * What the dashboard and the CLI browse, as one part of the memory service (`MemoryService.browse`):
 * projects, a memory's history and sources, sessions. The routes reach the store only through it.
 */
import type { DreamReport } from '../../api/dream.js';
import type { Memory } from '../../api/memory.js';
import type { HistoryEvent, MemorySource, ProjectsResponse, SessionListQuery } from '../../api/memory-browse.js';
import type { EpisodeStore } from '../episodic/episodes.js';
import type { SessionRegistry } from '../sessions.js';
import type { MemoryStore } from '../store/store.js';
import { memoryHistory } from './history.js';
import { projects } from './projects.js';
import { memorySources } from './provenance.js';
import { listSessions, type SessionPage } from './session-list.js';

export class MemoryViews {
  constructor(
    private readonly store: MemoryStore,
    private readonly sessions: SessionRegistry,
    private readonly episodes: EpisodeStore,
  ) {}

  projects(): ProjectsResponse {
    return projects(this.store, this.sessions.list());
  }

  /** A memory and what happened to it (dream reports name what they merged, superseded, pruned; `more`: events recorded elsewhere). */
  history(id: string, reports: DreamReport[], more: HistoryEvent[] = []): { memory: Memory; events: HistoryEvent[] } {
    return { memory: this.store.mustGet(id), events: memoryHistory(this.store, id, this.sessions.list(), reports, more) };
  }

  /** A memory and the passages of the sessions it came from. */
  async sources(id: string): Promise<{ memory: Memory; sources: MemorySource[] }> {
    const memory = this.store.mustGet(id);
    return { memory, sources: await memorySources(memory, this.sessions, this.episodes) };
  }

  /** Sessions, filtered and paged; `project` already resolved to its key (MemoryService.project). */
  sessionList(q: SessionListQuery, project: string | undefined): SessionPage {
    return listSessions(this.sessions, this.episodes, q, project);
  }
}
