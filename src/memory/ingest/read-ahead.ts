/**
 * One transcript read ahead of its turn. A caller that ingests several files one after another
 * names the next with each request (`next`); that file is read while this one is extracted on the
 * ranking thread, so the two threads work side by side instead of in turns. The read is taken only
 * if it is the request's own file, read the same way, and its session is as it was when read;
 * otherwise the request reads it again. Nothing is written by a read, so one dropped costs nothing.
 */
import { isAbsolute } from 'node:path';
import type { IngestRequest } from '../../api/memory.js';
import { markOf, readSession, sameMark, type ReadDeps, type SessionRead, type UnchangedRead } from './read-session.js';

type ReadWay = Pick<IngestRequest, 'path' | 'format' | 'reingest'>;

/** Unclaimed this long, a read is let go: its caller went away. */
const KEEP_MS = 60_000;

const sameWay = (a: ReadWay, b: ReadWay): boolean => a.path === b.path && a.format === b.format && (a.reingest === true) === (b.reingest === true);

export class ReadAhead {
  private pending: { way: ReadWay; read: Promise<UnchangedRead | SessionRead | undefined>; timer: NodeJS.Timeout } | undefined;

  constructor(private readonly deps: ReadDeps) {}

  /**
   * Starts reading `way.path` (a hint: a path that cannot be read is left to its own request to
   * report). Resolves once it is read or given up.
   */
  async start(way: ReadWay): Promise<void> {
    if (!isAbsolute(way.path)) return;
    this.drop();
    const read = readSession(this.deps, way).catch(() => undefined);
    this.pending = { way, read, timer: setTimeout(() => this.drop(), KEEP_MS).unref() };
    await read;
  }

  /** The read made ahead for this request, if there is one and it still holds. */
  async take(way: ReadWay): Promise<UnchangedRead | SessionRead | undefined> {
    const p = this.pending;
    if (p === undefined || !sameWay(p.way, way)) return undefined;
    this.drop();
    const read = await p.read;
    if (read === undefined || !sameMark(read.mark, markOf(this.deps.sessions.get(read.key)))) return undefined;
    return read;
  }

  private drop(): void {
    if (this.pending !== undefined) clearTimeout(this.pending.timer);
    this.pending = undefined;
  }
}
