/**
 * The episodic index: what was said and done in each session (user and assistant text, tool calls
 * by name and short arguments; never raw tool output), searchable, with provenance back to the
 * session and message. One JSONL file per session holds the episodes; per project, an on-disk index
 * (episodic/project-index.ts) is opened on the first search of that project. Start-up reads only
 * the catalog; session files it does not know (older homes) are indexed in the background.
 * An append is durable in its session file and the catalog at once; its indexing waits until the
 * appends pause (a run of ingests is indexed as one segment per project, after the last of them)
 * or a search needs it. A stop before then loses nothing: a project's index catches up with its
 * session files when it is opened.
 */
import { mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import type { SearchHit } from '../../api/memory.js';
import { AppError, isErrno } from '../../errors.js';
import { Catalog } from './catalog.js';
import { docTerms, ownTerms, queryTerms } from './doc-terms.js';
import { ProjectIndex, type Scored } from './project-index.js';
import type { SegmentDoc } from './segment.js';
import { appendEpisodes, readSessionFile, SessionReader, writeSessionFile, type Line } from './session-file.js';
import type { Episode } from './types.js';
import { stripControls } from '../../redact/sanitize.js';

export type { Episode } from './types.js';

export const EPISODE_TEXT_MAX = 2000;
/** Project indexes kept open; others are opened again when searched. */
const OPEN_PROJECTS = 8;
/** Background indexing of unknown session files works in slices of about this long. */
const SLICE_MS = 20;
/** Appended sessions are indexed once no append came for this long (an ingest of many files is one run). */
const QUIET_MS = 250;
/** Appended episodes indexed in one slice (about 20 ms of indexing). */
const SLICE_EPISODES = 400;
/** Appended episodes held at most: past this, indexing starts without waiting for a pause. */
const HELD_MAX = 20_000;

/** A session file's complete lines, where they end, and whose they are. */
interface SessionLines {
  key: string;
  sessionId: string;
  project: string | null;
  lines: Line[];
  end: number;
}

/** Stored text never holds a control character; secrets were masked as the transcript was read (ingest/masked-messages.ts). */
const clean = (s: string) => stripControls(s);
const cleanEpisode = (e: Episode): Episode => ({ ...e, text: clean(e.text), ...(e.speaker !== undefined && { speaker: clean(e.speaker) }) });

export class EpisodeStore {
  private readonly catalog: Catalog;
  private readonly open = new Map<string, ProjectIndex>();
  /** Session files the catalog does not know yet, indexed in the background (or at once, by a search). */
  private readonly unknown: string[];
  private timer: NodeJS.Immediate | undefined;
  /** Sessions appended and not indexed yet, by key: their lines as last appended. */
  private readonly appended = new Map<string, SessionLines>();
  /** Lines the appended sessions hold. */
  private held = 0;
  private quiet: NodeJS.Timeout | undefined;
  private draining: NodeJS.Immediate | undefined;

  private constructor(private readonly dir: string) {
    mkdirSync(join(dir, 'index'), { recursive: true, mode: 0o700 });
    this.catalog = Catalog.load(join(dir, 'index', 'catalog.json'));
    this.unknown = listSessionFiles(dir).filter((key) => this.catalog.get(key) === undefined);
  }

  static open(dir: string): EpisodeStore {
    return new EpisodeStore(dir);
  }

  /** Indexes session files the catalog does not know, in slices between requests. */
  indexInBackground(): void {
    if (!this.timer) this.schedule();
  }

  get size(): number {
    return this.catalog.episodes;
  }

  /** Stops background indexing (what is left is picked up at the next start) and saves the catalog. */
  close(): void {
    this.pause();
    this.catalog.flush();
  }

  private pause(): void {
    if (this.timer) clearImmediate(this.timer);
    this.timer = undefined;
    if (this.quiet) clearTimeout(this.quiet);
    this.quiet = undefined;
    if (this.draining) clearImmediate(this.draining);
    this.draining = undefined;
  }

  /** Appends a session's new episodes durably (none twice); they are indexed once appends pause. */
  async append(sessionKey: string, episodes: Episode[]): Promise<void> {
    if (episodes.length === 0) return;
    const cleaned = episodes.map(cleanEpisode);
    const { before, added, size } = appendEpisodes(this.fileOf(sessionKey), cleaned);
    const first = cleaned[0] as Episode;
    const lines = [...before, ...added];
    this.catalog.set(sessionKey, { sessionId: first.sessionId, project: first.project, episodes: unique(lines).length });
    this.catalog.save();
    this.held += lines.length - (this.appended.get(sessionKey)?.lines.length ?? 0);
    this.appended.set(sessionKey, { key: sessionKey, sessionId: first.sessionId, project: first.project, lines, end: size });
    if (this.quiet) clearTimeout(this.quiet);
    this.quiet = undefined;
    // Ingests that never pause (a watcher catching up on a big home) are indexed as they go.
    if (this.held > HELD_MAX) {
      this.draining ??= setImmediate(() => {
        this.draining = undefined;
        this.drain();
      });
      return;
    }
    if (this.draining) clearImmediate(this.draining);
    this.draining = undefined;
    this.quiet = setTimeout(() => {
      this.quiet = undefined;
      this.drain();
    }, QUIET_MS).unref();
  }

  /** Indexes appended sessions a slice at a time, between requests. */
  private drain(): void {
    if (this.appended.size === 0) return;
    this.indexAppended(SLICE_EPISODES);
    this.draining = setImmediate(() => {
      this.draining = undefined;
      this.drain();
    });
  }

  /** Indexes appended sessions, oldest append first, until about `episodes` were taken (one segment per project). */
  private indexAppended(episodes: number): void {
    const byProject = new Map<string | null, SessionLines[]>();
    let taken = 0;
    for (const [key, s] of this.appended) {
      if (taken >= episodes) break;
      this.appended.delete(key);
      this.held -= s.lines.length;
      taken += s.lines.length;
      const list = byProject.get(s.project) ?? [];
      list.push(s);
      byProject.set(s.project, list);
    }
    for (const [project, sessions] of byProject) this.index(project, sessions);
    this.catalog.save();
  }

  /**
   * Replaces everything kept from one session file (a re-ingest): the file is rewritten atomically,
   * and the index of its project is dropped, to be rebuilt from the session files when the project
   * is next searched or appended to (segments are immutable; a re-ingest is rare, a rebuild costs
   * about what indexing the project cost the first time).
   */
  async replaceSession(sessionKey: string, episodes: Episode[]): Promise<void> {
    this.settle();
    const cleaned = unique(episodes.map((e, i) => ({ offset: i, bytes: 0, episode: cleanEpisode(e) }))).map((l) => l.episode);
    const before = this.catalog.get(sessionKey);
    writeSessionFile(this.fileOf(sessionKey), cleaned);
    const first = cleaned[0];
    const project = first?.project ?? before?.project ?? null;
    for (const p of new Set([project, before?.project ?? project])) this.drop(p);
    this.catalog.set(sessionKey, { sessionId: first?.sessionId ?? before?.sessionId ?? sessionKey, project, episodes: cleaned.length });
    this.catalog.save();
  }

  search(query: string, opts: { project?: string | undefined; limit: number }): SearchHit[] {
    this.settle();
    const q = queryTerms(query);
    const projects = this.projects().filter((p) => opts.project === undefined || p === opts.project);
    const scored = projects.flatMap((p) => this.searchProject(p, q, opts.limit));
    scored.sort((a, b) => b.score - a.score);
    const out: SearchHit[] = [];
    const files = new SessionReader((key) => this.fileOf(key));
    try {
      for (const s of scored) {
        if (out.length >= opts.limit) break;
        const e = files.read(s.session, s.offset, s.bytes);
        if (!e || (opts.project !== undefined && e.project !== opts.project)) continue;
        out.push({
          sessionId: e.sessionId,
          messageId: e.messageId,
          project: e.project,
          role: e.role,
          kind: e.kind,
          text: e.text,
          score: s.score,
          ...(e.speaker !== undefined && { speaker: e.speaker }),
          ...(e.at !== undefined && { at: e.at }),
        });
      }
    } finally {
      files.close();
    }
    return out;
  }

  /** A project's best matches; an index that cannot be read is rebuilt from the session files once. */
  private searchProject(project: string | null, q: ReadonlyMap<string, number>, limit: number): Scored[] {
    try {
      return this.projectIndex(project).search(q, limit);
    } catch (err) {
      if (!(err instanceof AppError) || err.code !== 'state_corrupt') throw err;
      this.drop(project);
      return this.projectIndex(project).search(q, limit);
    }
  }

  /** Forgets a project's index on disk: the next use rebuilds it from the session files. */
  private drop(project: string | null): void {
    this.open.delete(projectDir(project));
    rmSync(join(this.dir, 'index', projectDir(project)), { recursive: true, force: true });
  }

  /** Every episode of the given sessions (by session id), in the order they were said. */
  ofSessions(sessionIds: ReadonlySet<string>): Episode[] {
    this.settle();
    const out: Episode[] = [];
    for (const [key, entry] of this.catalog.entries()) {
      if (sessionIds.has(entry.sessionId)) out.push(...unique(readSessionFile(this.fileOf(key)).lines).map((l) => l.episode));
    }
    return out;
  }

  private fileOf(key: string): string {
    return join(this.dir, `${key}.jsonl`);
  }

  private projects(): (string | null)[] {
    return [...new Set([...this.catalog.entries()].map(([, e]) => e.project))];
  }

  /** A project's index, opened (and caught up with its session files) on first use. */
  private projectIndex(project: string | null): ProjectIndex {
    const name = projectDir(project);
    let idx = this.open.get(name);
    if (idx) {
      this.open.delete(name); // most recently used last
      this.open.set(name, idx);
      return idx;
    }
    const dir = join(this.dir, 'index', name);
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    try {
      idx = ProjectIndex.load(dir);
    } catch (err) {
      if (!(err instanceof AppError) || err.code !== 'state_corrupt') throw err;
      this.drop(project);
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      idx = ProjectIndex.load(dir);
    }
    this.open.set(name, idx);
    if (this.open.size > OPEN_PROJECTS) this.open.delete(this.open.keys().next().value as string);
    // Appended and not indexed when the daemon stopped (what this one appended is indexed from memory).
    const behind: SessionLines[] = [];
    for (const [key, entry] of this.catalog.entries()) {
      if (entry.project === project && !this.appended.has(key) && fileSize(this.fileOf(key)) > idx.covered(key))
        behind.push({ key, ...entry, ...readSessionFile(this.fileOf(key)) });
    }
    if (behind.length > 0) {
      this.index(project, behind);
      this.catalog.save();
    }
    return idx;
  }

  /**
   * Indexes what of the sessions' files (their complete lines) the project's index does not cover
   * yet, as one segment, and records the sessions in the catalog (saved by the caller).
   */
  private index(project: string | null, sessions: SessionLines[]): void {
    const idx = this.projectIndex(project);
    const keys: string[] = [];
    const covers: { session: string; from: number; to: number }[] = [];
    const docs: SegmentDoc[] = [];
    for (const s of sessions) {
      const from = idx.covered(s.key);
      const all = unique(s.lines);
      this.catalog.set(s.key, { sessionId: s.sessionId, project, episodes: all.length });
      if (from >= s.end) continue;
      // The new lines, and the one before them for context.
      const start = Math.max(0, all.findIndex((l) => l.offset >= from) - 1);
      const own = all.map((l, i) => (i >= start ? ownTerms(l.episode) : []));
      all.forEach((l, i) => {
        if (l.offset < from) return;
        const { terms, length } = docTerms(l.episode, own[i] as string[], own[i - 1], own[i + 1]);
        docs.push({ session: keys.length, offset: l.offset, bytes: l.bytes, length, terms });
      });
      covers.push({ session: s.key, from, to: s.end });
      keys.push(s.key);
    }
    idx.add(keys, covers, docs);
  }

  /** Indexes every session appended or unknown to the catalog: at once (a search needs them all). */
  private settle(): void {
    if (this.unknown.length === 0 && this.appended.size === 0) return;
    this.pause();
    this.indexAppended(Infinity);
    this.adopt(Infinity);
  }

  private schedule(): void {
    if (this.unknown.length === 0) return;
    this.timer = setImmediate(() => {
      this.timer = undefined;
      this.adopt(SLICE_MS);
      this.schedule();
    });
  }

  /** Takes unknown session files in for about `ms` (grouped by project: one segment each), then saves the catalog. */
  private adopt(ms: number): void {
    const until = Date.now() + ms;
    const byProject = new Map<string | null, SessionLines[]>();
    while (this.unknown.length > 0 && Date.now() < until) {
      const key = this.unknown.shift() as string;
      const file = readSessionFile(this.fileOf(key));
      const first = file.lines[0]?.episode;
      if (!first) continue;
      const list = byProject.get(first.project) ?? [];
      list.push({ key, sessionId: first.sessionId, project: first.project, ...file });
      byProject.set(first.project, list);
    }
    for (const [project, sessions] of byProject) this.index(project, sessions);
    this.catalog.save();
  }
}

/** The first line of each message id (files written before appends were idempotent may repeat one). */
function unique(lines: Line[]): Line[] {
  const seen = new Set<string>();
  return lines.filter((l) => !seen.has(l.episode.messageId) && seen.add(l.episode.messageId));
}

const projectDir = (project: string | null) => (project === null ? 'none' : `p-${createHash('sha256').update(project).digest('hex').slice(0, 16)}`);

function listSessionFiles(dir: string): string[] {
  try {
    return readdirSync(dir)
      .filter((f) => f.endsWith('.jsonl'))
      .map((f) => f.slice(0, -'.jsonl'.length));
  } catch (err) {
    if (isErrno(err, 'ENOENT')) return [];
    throw err;
  }
}

function fileSize(path: string): number {
  try {
    return statSync(path).size;
  } catch (err) {
    if (isErrno(err, 'ENOENT')) return 0;
    throw err;
  }
}
