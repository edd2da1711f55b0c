/**
 * The state records on disk: one JSON file per project (`<state>/work-state/<hash>.json`), written
 * atomically, validated on read (a file that does not fit is set aside and the next ingests write it
 * again), and cached.
 */
import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { DurableJsonFile } from '../../sys/state-file.js';
import { ProjectState, type SessionState } from './schema.js';

const CACHE_MAX = 500;

export class StateStore {
  private readonly cache = new Map<string, ProjectState>();

  constructor(private readonly dir: string) {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
  }

  private file(project: string): DurableJsonFile<typeof ProjectState> {
    const name = createHash('sha256').update(project).digest('hex').slice(0, 24);
    return new DurableJsonFile(join(this.dir, `${name}.json`), ProjectState);
  }

  /** The project's record; an empty one when it has none yet. */
  get(project: string): ProjectState {
    const hit = this.cache.get(project);
    if (hit !== undefined) return hit;
    const found = this.file(project).readOrSetAside().data ?? { version: 1 as const, project, sessions: [], archive: [] };
    if (this.cache.size >= CACHE_MAX) this.cache.clear();
    this.cache.set(project, found);
    return found;
  }

  /** One session's record for this ingest: the one kept from the ingest before, when there is one. */
  session(project: string, key: string): SessionState | undefined {
    return this.get(project).sessions.find((s) => s.key === key);
  }

  /** A session's record replaces the one kept for the same session file. */
  async putSession(project: string, record: SessionState): Promise<void> {
    const state = structuredClone(this.get(project));
    state.sessions = [...state.sessions.filter((s) => s.key !== record.key), record];
    await this.put(state);
  }

  async put(state: ProjectState): Promise<void> {
    await this.file(state.project).write(state);
    this.cache.set(state.project, state);
  }
}
