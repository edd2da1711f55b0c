/**
 * One project's episode index: a few immutable segments listed by a manifest. A run of ingests
 * adds a small segment; segments of about the same size are merged once eight of them pile up (up to
 * ~32k episodes), so a project has a few dozen at most and each episode is rewritten a few times.
 * A crash leaves either the old manifest or the new one; files it does not list are removed.
 */
import { closeSync, openSync, readdirSync, readFileSync, renameSync, unlinkSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { isErrno } from '../../errors.js';
import { TopK } from '../../sys/top-k.js';
import { encodeParts, encodeSegment, Segment, type Cover, type DocRow, type SegmentDoc, type TermPostings } from './segment.js';

const Manifest = z.object({ next: z.number().int().nonnegative(), segments: z.array(z.string()) });
type Manifest = z.infer<typeof Manifest>;

const K1 = 1.2;
const B = 0.75;
/** The words of the turns around an episode count half as much as its own (BM25F field weight). */
const CONTEXT_WEIGHT = 0.5;
/** An episode also scores this share of the best match in its session: the session is about the query. */
const SESSION_WEIGHT = 0.3;
const MERGE_FACTOR = 8;
/**
 * Segments of this level (8^4 = 4,096 episodes) and above are not merged further: a merge then
 * takes at most ~32k episodes (a few hundred ms, on the event loop), and a project of 250k has
 * about a dozen segments, which a search walks in a few ms.
 */
const TOP_LEVEL = 4;

export interface Scored {
  session: string;
  offset: number;
  bytes: number;
  score: number;
}

/**
 * Writes a file whole or not at all (temp file, rename). Not synced: index files survive a killed
 * daemon (the page cache does) and are rebuilt from the session files if a power cut garbles them;
 * three fsyncs per ingest cost more than the ingest itself (7 ms each here).
 */
export function atomicWrite(path: string, data: Buffer | string): void {
  const tmp = `${path}.tmp`;
  const fd = openSync(tmp, 'w', 0o600);
  try {
    const buf = typeof data === 'string' ? Buffer.from(data) : data;
    let done = 0;
    while (done < buf.length) done += writeSync(fd, buf, done, buf.length - done);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, path);
}

const level = (docs: number) => Math.floor(Math.log(Math.max(1, docs)) / Math.log(MERGE_FACTOR));

export class ProjectIndex {
  private constructor(
    readonly dir: string,
    private manifest: Manifest,
    private segments: Segment[],
  ) {}

  static load(dir: string): ProjectIndex {
    let manifest: Manifest = { next: 0, segments: [] };
    try {
      const parsed = Manifest.safeParse(JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')));
      if (parsed.success) manifest = parsed.data;
    } catch (err) {
      if (!isErrno(err, 'ENOENT') && !(err instanceof SyntaxError)) throw err;
    }
    // Leftovers of a crash between writing a segment and committing the manifest, or of a merge.
    const listed = new Set(manifest.segments);
    for (const f of safeList(dir)) if (!listed.has(f) && f !== 'manifest.json') unlinkSync(join(dir, f));
    return new ProjectIndex(
      dir,
      manifest,
      manifest.segments.map((f) => Segment.open(join(dir, f))),
    );
  }

  get docs(): number {
    return this.segments.reduce((n, s) => n + s.docs, 0);
  }

  /** How far into a session file the index reaches (0: nothing of it). */
  covered(session: string): number {
    let to = 0;
    for (const s of this.segments) for (const c of s.covers) if (c.session === session && c.to > to) to = c.to;
    return to;
  }

  /** Indexes new episodes (in session order) as a segment, then merges when segments piled up. */
  add(sessions: string[], covers: Cover[], docs: SegmentDoc[]): void {
    if (docs.length === 0 && covers.length === 0) return;
    this.commit([encodeSegment(sessions, covers, docs)], []);
    this.mergeIfDue();
  }

  private commit(add: Buffer[], remove: Segment[]): void {
    const names: string[] = [];
    for (const bytes of add) {
      const name = `seg-${String(this.manifest.next++).padStart(6, '0')}.idx`;
      // Straight to its name: it is live only once the manifest lists it (unlisted files are removed at load).
      writeFileSync(join(this.dir, name), bytes, { mode: 0o600 });
      names.push(name);
    }
    const gone = new Set(remove.map((s) => s.path));
    const kept = this.segments.filter((s) => !gone.has(s.path));
    const next: Manifest = { next: this.manifest.next, segments: [...kept.map((s) => s.path.slice(this.dir.length + 1)), ...names] };
    atomicWrite(join(this.dir, 'manifest.json'), JSON.stringify(next));
    this.manifest = next;
    this.segments = [...kept, ...names.map((n) => Segment.open(join(this.dir, n)))];
    for (const s of remove) unlinkSync(s.path);
  }

  private mergeIfDue(): void {
    for (;;) {
      const byLevel = new Map<number, Segment[]>();
      for (const s of this.segments) {
        const l = level(s.docs);
        byLevel.set(l, [...(byLevel.get(l) ?? []), s]);
      }
      const due = [...byLevel].find(([l, list]) => l < TOP_LEVEL && list.length >= MERGE_FACTOR)?.[1];
      if (!due) return;
      this.commit([merge(due)], due);
    }
  }

  /**
   * BM25F over the project's episodes (own words, and the turns around them, each field normalised
   * by its own length), each episode also scoring a share of its session's best match.
   */
  search(query: ReadonlyMap<string, number>, limit: number): Scored[] {
    const n = this.docs;
    if (n === 0 || query.size === 0) return [];
    const avgOwn = Math.max(1e-9, this.segments.reduce((a, s) => a + s.totalLength[0], 0) / n);
    const avgContext = Math.max(1e-9, this.segments.reduce((a, s) => a + s.totalLength[1], 0) / n);
    const idf = new Map<string, number>();
    for (const t of query.keys()) {
      const df = this.segments.reduce((a, s) => a + s.df(t), 0);
      if (df > 0) idf.set(t, Math.log(1 + (n - df + 0.5) / (df + 0.5)));
    }
    if (idf.size === 0) return [];
    const perSegment: { seg: Segment; fd: number; scores: Map<number, number> }[] = [];
    const best = new Map<string, number>();
    try {
      for (const seg of this.segments) {
        const fd = openSync(seg.path, 'r');
        const scores = new Map<number, number>();
        perSegment.push({ seg, fd, scores });
        for (const [t, qw] of query) {
          const w = idf.get(t);
          if (w === undefined || seg.df(t) === 0) continue;
          for (const p of seg.postings(fd, t)) {
            const x =
              p.own / (1 - B + (B * (seg.ownLength[p.doc] as number)) / avgOwn) +
              (CONTEXT_WEIGHT * p.context) / (1 - B + (B * (seg.contextLength[p.doc] as number)) / avgContext);
            scores.set(p.doc, (scores.get(p.doc) ?? 0) + (qw * w * x * (K1 + 1)) / (x + K1));
          }
        }
        for (const [doc, s] of scores) {
          const key = seg.sessions[seg.docSession[doc] as number] as string;
          if (s > (best.get(key) ?? 0)) best.set(key, s);
        }
      }
      const top = new TopK<{ seg: Segment; fd: number; doc: number }>(limit);
      for (const { seg, fd, scores } of perSegment) {
        for (const [doc, s] of scores) {
          const session = seg.sessions[seg.docSession[doc] as number] as string;
          top.offer(s + SESSION_WEIGHT * (best.get(session) ?? 0), { seg, fd, doc });
        }
      }
      return top.sorted().map(({ score, item }) => ({ ...item.seg.line(item.fd, item.doc), score }));
    } finally {
      for (const { fd } of perSegment) closeSync(fd);
    }
  }
}

function safeList(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch (err) {
    if (isErrno(err, 'ENOENT')) return [];
    throw err;
  }
}

/** One segment with the docs of all the given ones, in order, and their postings concatenated. */
function merge(segments: Segment[]): Buffer {
  const sessions: string[] = [];
  const sessionIndex = new Map<string, number>();
  const covers: Cover[] = [];
  const docs: DocRow[] = [];
  const fds = segments.map((s) => openSync(s.path, 'r'));
  try {
    const bases: number[] = [];
    segments.forEach((seg, i) => {
      bases.push(docs.length);
      const lines = seg.allLines(fds[i] as number);
      const remap = seg.sessions.map((key) => {
        let at = sessionIndex.get(key);
        if (at === undefined) {
          at = sessions.push(key) - 1;
          sessionIndex.set(key, at);
        }
        return at;
      });
      for (const c of seg.covers) {
        // One range per session: what the merged segment covers of it, from its first to its last byte.
        const same = covers.find((x) => x.session === c.session);
        if (same) Object.assign(same, { from: Math.min(same.from, c.from), to: Math.max(same.to, c.to) });
        else covers.push({ ...c });
      }
      lines.forEach((l, d) =>
        docs.push({
          session: remap[seg.docSession[d] as number] as number,
          offset: l.offset,
          bytes: l.bytes,
          length: [seg.ownLength[d] as number, seg.contextLength[d] as number],
        }),
      );
    });
    const terms = [...new Set(segments.flatMap((s) => s.terms))].sort();
    function* postings(): Generator<TermPostings> {
      for (const t of terms) {
        const triples: number[] = [];
        segments.forEach((seg, i) => {
          const raw = seg.rawPostings(fds[i] as number, t);
          for (let j = 0; j < raw.length; j += 3) triples.push((raw[j] as number) + (bases[i] as number), raw[j + 1] as number, raw[j + 2] as number);
        });
        yield [t, triples];
      }
    }
    return encodeParts(sessions, covers, docs, postings());
  } finally {
    for (const fd of fds) closeSync(fd);
  }
}
