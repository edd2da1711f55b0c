/**
 * Which session files the episodic index knows: per session file (by key), its session id, its
 * project and how many episodes it holds. Read at start instead of the files themselves, so start-up
 * does not grow with the episodes; rewritten whole (atomically) at most every half second. A catalog
 * that lags after a crash only costs a re-read: a session file it does not know is taken in again at
 * the next start, and the index (whose segments record what they cover) adds nothing twice.
 */
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { isErrno } from '../../errors.js';
import { atomicWrite } from './project-index.js';

const Entry = z.object({ sessionId: z.string(), project: z.string().nullable(), episodes: z.number().int().nonnegative() });
export type CatalogEntry = z.infer<typeof Entry>;
const File = z.object({ version: z.literal(1), sessions: z.record(Entry) });

const SAVE_AFTER_MS = 500;

export class Catalog {
  private total = 0;
  private timer: NodeJS.Timeout | undefined;

  private constructor(
    private readonly path: string,
    private readonly sessions: Map<string, CatalogEntry>,
  ) {
    for (const e of sessions.values()) this.total += e.episodes;
  }

  /** An unreadable catalog is rebuilt from the session files (they are the truth), never fatal. */
  static load(path: string): Catalog {
    try {
      const parsed = File.safeParse(JSON.parse(readFileSync(path, 'utf8')));
      if (parsed.success) return new Catalog(path, new Map(Object.entries(parsed.data.sessions)));
    } catch (err) {
      if (!isErrno(err, 'ENOENT') && !(err instanceof SyntaxError)) throw err;
    }
    return new Catalog(path, new Map());
  }

  get episodes(): number {
    return this.total;
  }

  get(key: string): CatalogEntry | undefined {
    return this.sessions.get(key);
  }

  entries(): IterableIterator<[string, CatalogEntry]> {
    return this.sessions.entries();
  }

  set(key: string, entry: CatalogEntry): void {
    this.total += entry.episodes - (this.sessions.get(key)?.episodes ?? 0);
    this.sessions.set(key, entry);
  }

  /** Saves soon: one write for a burst of changes. */
  save(): void {
    this.timer ??= setTimeout(() => this.flush(), SAVE_AFTER_MS);
  }

  /** Saves now if a save is pending. Never throws: a failed write is retried with the next change. */
  flush(): void {
    if (this.timer === undefined) return;
    clearTimeout(this.timer);
    this.timer = undefined;
    try {
      atomicWrite(this.path, JSON.stringify({ version: 1, sessions: Object.fromEntries(this.sessions) }));
    } catch {
      // The catalog is a hint, not the truth (see above): losing one write costs a re-read at most.
    }
  }
}
