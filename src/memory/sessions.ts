/** Known sessions and how far each transcript has been ingested (the byte offset cursor). */
import { createHash } from 'node:crypto';
import { Low } from 'lowdb';
import { z } from 'zod';
import { SessionRecord } from '../api/memory.js';
import { DurableJsonFile, GroupCommit } from '../sys/state-file.js';

const SessionsFile = z.object({ version: z.literal(1), sessions: z.array(SessionRecord) });
type SessionsData = z.infer<typeof SessionsFile>;

/** A transcript is known by its real path: the same file reached by two paths is one session. */
export const sessionKey = (realPath: string): string => createHash('sha256').update(realPath).digest('hex').slice(0, 16);

export class SessionRegistry {
  private readonly byKey = new Map<string, SessionRecord>();
  private readonly group: GroupCommit;

  private constructor(private readonly db: Low<SessionsData>) {
    for (const s of db.data.sessions) this.byKey.set(s.key, s);
    this.group = new GroupCommit(() => db.write());
  }

  /** Set when the file could not be read at start and was moved aside (sessions are then ingested again). */
  setAside: string | undefined;

  /** Counts saves: what is derived from the sessions (store/activity.ts) is worked out again when it moves. */
  version = 0;

  static async open(file: string): Promise<SessionRegistry> {
    // Losing the cursors costs a re-read of each transcript, never a double count (sources are checked).
    const adapter = new DurableJsonFile(file, SessionsFile);
    const { data, setAside } = adapter.readOrSetAside();
    const db = new Low(adapter, data ?? { version: 1, sessions: [] });
    const registry = new SessionRegistry(db);
    registry.setAside = setAside?.movedTo;
    // An ingest cut off by a crash never moved the offset: it is simply pending again.
    for (const s of db.data.sessions) if (s.state === 'ingesting') s.state = 'pending';
    return registry;
  }

  get(key: string): SessionRecord | undefined {
    return this.byKey.get(key);
  }

  list(): SessionRecord[] {
    return [...this.byKey.values()];
  }

  /** The record for a transcript, created (pending, offset 0) when new. */
  ensure(key: string, init: Pick<SessionRecord, 'sessionId' | 'path' | 'project' | 'agentId'>): SessionRecord {
    let s = this.byKey.get(key);
    if (!s) {
      s = { key, ...init, state: 'pending', offset: 0, size: 0, messages: 0, malformedLines: 0, memories: 0, tokens: { input: 0, output: 0 } };
      if (s.agentId === undefined) delete s.agentId;
      this.byKey.set(key, s);
      this.db.data.sessions.push(s);
    }
    return s;
  }

  /** Puts a session back as it was before an ingest that was refused (a write failed): one that was new is gone again. */
  undo(key: string, before: SessionRecord | undefined): void {
    const s = this.byKey.get(key);
    if (!s) return;
    if (before === undefined) {
      this.byKey.delete(key);
      this.db.data.sessions = this.db.data.sessions.filter((x) => x !== s);
      return;
    }
    for (const k of Object.keys(s)) delete (s as Record<string, unknown>)[k];
    Object.assign(s, before);
  }

  /** The session's own file (not a subagent or compaction sidechain of it). */
  main(sessionId: string): SessionRecord | undefined {
    return this.list().find((s) => s.sessionId === sessionId && s.agentId === undefined);
  }

  /** The subagent and compaction sidechain files of a session. */
  sidechains(sessionId: string): SessionRecord[] {
    return this.list().filter((s) => s.sessionId === sessionId && s.agentId !== undefined);
  }

  /** A session by file key, session id, or a unique prefix of one (8 characters at least); its own file first. */
  find(id: string): SessionRecord | undefined {
    const exact = this.byKey.get(id) ?? this.main(id) ?? this.list().find((s) => s.sessionId === id);
    if (exact !== undefined || id.length < 8) return exact;
    const ids = new Set(
      this.list()
        .filter((s) => s.sessionId.startsWith(id))
        .map((s) => s.sessionId),
    );
    const [only] = ids;
    return ids.size === 1 && only !== undefined ? (this.main(only) ?? this.list().find((s) => s.sessionId === only)) : undefined;
  }

  /** Sessions ingested after `iso` (for the dream's gates). */
  ingestedSince(iso: string | undefined): SessionRecord[] {
    return this.list().filter((s) => s.ingestedAt !== undefined && (iso === undefined || s.ingestedAt > iso));
  }

  save(): Promise<void> {
    this.version++;
    return this.group.commit();
  }
}
