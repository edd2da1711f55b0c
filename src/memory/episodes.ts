/**
 * The episodic index: what was said and done in each session (user and assistant text, tool calls
 * by name and short arguments; never raw tool output), searchable, with provenance back to the
 * session and message. One JSONL file per session, loaded and indexed at start.
 */
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { appendFile, open, readFile, rename } from 'node:fs/promises';
import { join } from 'node:path';
import type { SearchHit } from '../api/memory.js';
import { isErrno } from '../errors.js';
import { LexicalIndex } from './lexical-index.js';

export interface Episode {
  sessionId: string;
  messageId: string;
  project: string | null;
  role: string;
  kind: string;
  speaker?: string;
  text: string;
  at?: string;
}

export const EPISODE_TEXT_MAX = 2000;

const indexText = (e: Episode) => (e.speaker ? `${e.speaker}: ${e.text}` : e.text);

export class EpisodeStore {
  private readonly docs: Episode[] = [];
  /** sessionId + messageId → position in docs, so a replayed append replaces instead of doubling. */
  private readonly positions = new Map<string, number>();
  private readonly index = new LexicalIndex();

  private constructor(private readonly dir: string) {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
  }

  static open(dir: string): EpisodeStore {
    const store = new EpisodeStore(dir);
    let files: string[] = [];
    try {
      files = readdirSync(dir).filter((f) => f.endsWith('.jsonl'));
    } catch (err) {
      if (!isErrno(err, 'ENOENT')) throw err;
    }
    const batch: { id: string; text: string }[] = [];
    for (const f of files) {
      for (const line of readFileSync(join(dir, f), 'utf8').split('\n')) {
        if (!line) continue;
        let e: Episode;
        try {
          e = JSON.parse(line) as Episode;
        } catch {
          continue; // a torn last line after a crash; the session's next ingest rewrites it
        }
        const id = store.place(e);
        if (id !== undefined) batch.push({ id, text: indexText(e) });
      }
    }
    store.index.addAll(batch);
    return store;
  }

  get size(): number {
    return this.positions.size;
  }

  /** Appends a session's new episodes durably, then indexes them. */
  async append(sessionKey: string, episodes: Episode[]): Promise<void> {
    if (episodes.length === 0) return;
    const file = join(this.dir, `${sessionKey}.jsonl`);
    await appendFile(file, episodes.map((e) => `${JSON.stringify(e)}\n`).join(''), { mode: 0o600 });
    const fh = await open(file, 'r');
    try {
      await fh.sync();
    } finally {
      await fh.close();
    }
    for (const e of episodes) {
      const id = this.place(e);
      if (id !== undefined) this.index.set(id, indexText(e));
      else this.index.set(String(this.positions.get(`${e.sessionId}\u0000${e.messageId}`)), indexText(e));
    }
  }

  /**
   * Replaces everything indexed from one session file (a re-ingest): the file is rewritten
   * atomically, the old episodes leave the index and the new ones enter it.
   */
  async replaceSession(sessionKey: string, episodes: Episode[]): Promise<void> {
    const file = join(this.dir, `${sessionKey}.jsonl`);
    let old = '';
    try {
      old = await readFile(file, 'utf8');
    } catch (err) {
      if (!isErrno(err, 'ENOENT')) throw err;
    }
    for (const line of old.split('\n')) {
      if (!line) continue;
      let e: Episode;
      try {
        e = JSON.parse(line) as Episode;
      } catch {
        continue;
      }
      const key = `${e.sessionId}\u0000${e.messageId}`;
      const at = this.positions.get(key);
      if (at === undefined) continue;
      this.positions.delete(key);
      this.index.delete(String(at));
    }
    const tmp = `${file}.tmp`;
    const fh = await open(tmp, 'w', 0o600);
    try {
      await fh.writeFile(episodes.map((e) => `${JSON.stringify(e)}\n`).join(''));
      await fh.sync();
    } finally {
      await fh.close();
    }
    await rename(tmp, file);
    for (const e of episodes) {
      const id = this.place(e);
      if (id !== undefined) this.index.set(id, indexText(e));
    }
  }

  /** Every episode of the given sessions, in the order they were indexed. */
  ofSessions(sessionIds: ReadonlySet<string>): Episode[] {
    const out: Episode[] = [];
    for (const [key, at] of this.positions) {
      const sid = key.slice(0, key.indexOf('\u0000'));
      const e = this.docs[at];
      if (e && sessionIds.has(sid)) out.push(e);
    }
    return out;
  }

  search(query: string, opts: { project?: string | undefined; limit: number }): SearchHit[] {
    const accept = opts.project === undefined ? undefined : (id: string) => this.docs[Number(id)]?.project === opts.project;
    return this.index.search(query, opts.limit, accept).flatMap((h) => {
      const e = this.docs[Number(h.id)];
      if (!e) return [];
      return [
        {
          sessionId: e.sessionId,
          messageId: e.messageId,
          project: e.project,
          role: e.role,
          kind: e.kind,
          text: e.text,
          score: h.score,
          ...(e.speaker !== undefined && { speaker: e.speaker }),
          ...(e.at !== undefined && { at: e.at }),
        },
      ];
    });
  }

  /** New episodes get a new position (returned); a known one is replaced in place (undefined). */
  private place(e: Episode): string | undefined {
    const key = `${e.sessionId}\u0000${e.messageId}`;
    const at = this.positions.get(key);
    if (at !== undefined) {
      this.docs[at] = e;
      return undefined;
    }
    this.positions.set(key, this.docs.length);
    this.docs.push(e);
    return String(this.docs.length - 1);
  }
}
