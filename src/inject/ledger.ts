/**
 * The injection ledger: every injection a session was given (items, why, tokens), the task
 * outcomes each session was told of, and the memories rejected in a project. One JSON line per
 * record appended to injections.jsonl (an append is what keeps the cost per injection well under
 * 2 ms; a snapshot rewrite per prompt would not); indexes kept in memory, rebuilt at open. When the
 * file outgrows MAX_RECORDS it is rewritten with the newest records and every rejection and undo.
 * A rejection or its undo is the person's command: on disk (fsync) before it is live, refused when
 * it cannot be written; an injection record that cannot be written is only logged.
 */
import { closeSync, fsyncSync, openSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import type { Injection } from '../api/injections.js';
import type { Logger } from '../log.js';
import { appendLines } from '../sys/append-file.js';
import { isRejectionLive, type Rejection, type RejectionEvent } from './rejections.js';

/** A session seen by the ledger: when it began (its first record) and the tasks it was told of. */
interface SessionState {
  project: string | null;
  beganAt: string;
  told: Set<string>;
  tokens: number;
  injections: number;
  lastAt: string;
}

type LedgerLine =
  | { t: 'inj'; v: Injection }
  | { t: 'begin'; sessionId: string; project: string | null; at: string }
  | { t: 'start'; sessionId: string; project: string; at: string }
  | { t: 'reject'; v: Rejection }
  | { t: 'unreject'; memoryId: string; project: string | null; at: string };

/** Injections kept (a few MB): the file is rewritten with the newest when it reaches one and a half times this. */
const MAX_RECORDS = 10_000;

export class InjectionLedger {
  private readonly injections: Injection[] = [];
  private readonly sessions = new Map<string, SessionState>();
  /** Per project, each session's latest session-start time. */
  private readonly starts = new Map<string, Map<string, string>>();
  /** Per project, memory id → its rejection. */
  private readonly rejections = new Map<string, Map<string, Rejection>>();
  /** Every reject and unreject line, oldest first: each memory's history, kept through a compaction. */
  private readonly rejectLines: Extract<LedgerLine, { t: 'reject' | 'unreject' }>[] = [];
  private lines = 0;
  private seq = 0;

  private constructor(
    private readonly file: string,
    private readonly log: Logger,
  ) {}

  /** Reads the ledger; a missing file is an empty ledger, an unreadable line is skipped (it only informs). */
  static open(file: string, log: Logger): InjectionLedger {
    const ledger = new InjectionLedger(file, log);
    let text = '';
    try {
      text = readFileSync(file, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') log.warn({ file, err: (err as Error).message }, 'injection ledger unreadable; starting afresh');
    }
    let bad = 0;
    for (const line of text.split('\n')) {
      if (!line) continue;
      try {
        ledger.apply(JSON.parse(line) as LedgerLine);
        ledger.lines++;
      } catch {
        bad++;
      }
    }
    if (bad > 0) log.warn({ file, lines: bad }, 'injection ledger lines skipped (not JSON)');
    return ledger;
  }

  private apply(l: LedgerLine): void {
    if (l.t === 'inj') {
      const v = l.v;
      this.injections.push(v);
      this.seq = Math.max(this.seq, Number(v.id.slice(1)) || 0);
      if (v.sessionId === null) return;
      const s = this.session(v.sessionId, v.project, v.at);
      s.tokens += v.tokens;
      s.injections++;
      s.lastAt = v.at;
      for (const i of v.items) if (i.kind === 'task') s.told.add(i.id);
      if (v.event === 'session-start' && v.project !== null) this.markStart(v.project, v.sessionId, v.at);
    } else if (l.t === 'begin') this.session(l.sessionId, l.project, l.at);
    else if (l.t === 'start') {
      this.session(l.sessionId, l.project, l.at);
      this.markStart(l.project, l.sessionId, l.at);
    } else if (l.t === 'reject') {
      let m = this.rejections.get(l.v.project ?? '');
      if (!m) this.rejections.set(l.v.project ?? '', (m = new Map()));
      m.set(l.v.memoryId, l.v);
      this.rejectLines.push(l);
    } else if (l.t === 'unreject') {
      this.rejections.get(l.project ?? '')?.delete(l.memoryId);
      this.rejectLines.push(l);
    }
  }

  private markStart(project: string, sessionId: string, at: string): void {
    let m = this.starts.get(project);
    if (!m) this.starts.set(project, (m = new Map()));
    m.set(sessionId, at);
  }

  private session(id: string, project: string | null, at: string): SessionState {
    let s = this.sessions.get(id);
    if (!s) this.sessions.set(id, (s = { project, beganAt: at, told: new Set(), tokens: 0, injections: 0, lastAt: at }));
    return s;
  }

  private append(l: LedgerLine): void {
    this.apply(l);
    try {
      appendLines(this.file, `${JSON.stringify(l)}\n`, { sync: false });
      this.lines++;
    } catch (err) {
      this.log.warn({ file: this.file, err: (err as Error).message }, 'could not write the injection ledger');
    }
    if (this.lines > MAX_RECORDS * 1.5) this.compact();
  }

  /** Written and synced first, live only then: throws (`disk_full` on a full disk) with nothing changed. */
  private appendDurably(lines: LedgerLine[]): void {
    appendLines(this.file, lines.map((l) => `${JSON.stringify(l)}\n`).join(''), { sync: true });
    for (const l of lines) this.apply(l);
    this.lines += lines.length;
    if (this.lines > MAX_RECORDS * 1.5) this.compact();
  }

  nextId(): string {
    return `i${++this.seq}`;
  }

  record(v: Injection): void {
    this.append({ t: 'inj', v });
  }

  /** A session's first sight (a prompt before any injection): when it began, for the tasks it is told of. */
  begin(sessionId: string, project: string | null, at: string): SessionState {
    const s = this.sessions.get(sessionId);
    if (s) return s;
    this.append({ t: 'begin', sessionId, project, at });
    return this.session(sessionId, project, at);
  }

  /** A session start that injected nothing: no injection to list, but the project's session began. */
  started(sessionId: string, project: string, at: string): void {
    this.append({ t: 'start', sessionId, project, at });
  }

  sessionOf(sessionId: string): Readonly<SessionState> | undefined {
    return this.sessions.get(sessionId);
  }

  /** When the latest session of `project` other than `sessionId` started (its latest session start), or undefined. */
  lastStart(project: string, sessionId: string | undefined): string | undefined {
    let best: string | undefined;
    for (const [id, at] of this.starts.get(project) ?? []) if (id !== sessionId && (best === undefined || at > best)) best = at;
    return best;
  }

  reject(r: Rejection): void {
    this.appendDurably([{ t: 'reject', v: r }]);
  }

  /** Lifts the memory's rejections (in `project` only, when given); returns those lifted, none when there were none. */
  unreject(memoryId: string, project: string | null | undefined, at: string): Rejection[] {
    const lifted = this.rejectionsOf(memoryId).filter((r) => project === undefined || r.project === project);
    if (lifted.length > 0) this.appendDurably(lifted.map((r) => ({ t: 'unreject' as const, memoryId, project: r.project, at })));
    return lifted;
  }

  /** The memory's standing rejections, one per project (live or lifted by a reinforcement since). */
  rejectionsOf(memoryId: string): Rejection[] {
    const out: Rejection[] = [];
    for (const m of this.rejections.values()) {
      const r = m.get(memoryId);
      if (r) out.push(r);
    }
    return out;
  }

  /** Every rejection and undo of the memory, oldest first. */
  rejectionEvents(memoryId: string): RejectionEvent[] {
    return this.rejectLines
      .filter((l) => (l.t === 'reject' ? l.v.memoryId : l.memoryId) === memoryId)
      .map((l) => (l.t === 'reject' ? { kind: 'rejected', project: l.v.project, at: l.v.at } : { kind: 'unrejected', project: l.project, at: l.at }));
  }

  /** Rejected in this project (or with no project) and not reinforced since. */
  isRejected(project: string | null, id: string, reinforcements: number | undefined): boolean {
    const r = this.rejections.get(project ?? '')?.get(id);
    return r !== undefined && isRejectionLive(r, reinforcements);
  }

  /** Newest first. */
  list(q: { session?: string | undefined; project?: string | undefined; limit: number }): Injection[] {
    const out: Injection[] = [];
    for (let i = this.injections.length - 1; i >= 0 && out.length < q.limit; i--) {
      const v = this.injections[i] as Injection;
      if (q.session !== undefined && v.sessionId !== q.session && !v.sessionId?.startsWith(q.session)) continue;
      if (q.project !== undefined && v.project !== q.project) continue;
      out.push(v);
    }
    return out;
  }

  get(id: string): Injection | undefined {
    return this.injections.find((v) => v.id === id);
  }

  /** Tokens injected per session, newest first. */
  totals(): { sessionId: string; project: string | null; injections: number; tokens: number; lastAt: string }[] {
    return [...this.sessions]
      .filter(([, s]) => s.injections > 0)
      .map(([sessionId, s]) => ({ sessionId, project: s.project, injections: s.injections, tokens: s.tokens, lastAt: s.lastAt }))
      .sort((a, b) => b.lastAt.localeCompare(a.lastAt));
  }

  /** The newest records and every rejection and undo, written whole in place of the file (at once: an append may not slip in between). */
  private compact(): void {
    const keep: LedgerLine[] = [...this.rejectLines, ...this.injections.slice(-MAX_RECORDS).map((v) => ({ t: 'inj' as const, v }))];
    const tmp = `${this.file}.${process.pid}.tmp`;
    try {
      // Synced before the rename: the rejections it carries were acknowledged as on disk.
      const fd = openSync(tmp, 'w', 0o600);
      try {
        writeFileSync(fd, keep.map((l) => `${JSON.stringify(l)}\n`).join(''));
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
      renameSync(tmp, this.file);
      this.injections.splice(0, Math.max(0, this.injections.length - MAX_RECORDS));
      this.lines = keep.length;
    } catch (err) {
      rmSync(tmp, { force: true });
      this.log.warn({ file: this.file, err: (err as Error).message }, 'could not compact the injection ledger');
    }
  }
}
