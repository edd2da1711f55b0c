/**
 * An immutable index segment on disk: the term → postings index of some episodes of one project,
 * and where each episode's line sits in its session file. Opening one reads its header (the term
 * dictionary, which sessions and byte ranges it covers) and two small numbers per episode; postings
 * and line positions are read from the file only when a search needs them, so memory does not grow
 * with the number of episodes.
 *
 * Layout: "NSEG2\n", u32 header length, header JSON, then per episode u32 session and the f32
 * lengths of its two fields (loaded), then per episode f64 offset + u32 byte length (read on
 * demand), then the postings: per term, varint doc-id gaps and the term's weight in each field
 * (varints, tenths of an occurrence). The fields: the episode's own words (and its speaker), and
 * the words of the turns around it.
 */
import { closeSync, openSync, readSync } from 'node:fs';
import { z } from 'zod';
import { AppError } from '../../errors.js';

const MAGIC = Buffer.from('NSEG2\n');
const WEIGHT_SCALE = 10;
/** Bytes per episode of the part loaded at open: session, two field lengths. */
const LOADED = 12;

/** A byte range of a session file whose episodes this segment holds. */
export interface Cover {
  session: string;
  from: number;
  to: number;
}

export interface SegmentDoc {
  /** Index into the segment's sessions. */
  session: number;
  offset: number;
  bytes: number;
  /** Sum of term weights per field (the BM25F field lengths). */
  length: FieldPair;
  /** Per term: its weight in the episode's own field and in its context field. */
  terms: Map<string, FieldPair>;
}

export type FieldPair = [own: number, context: number];

const Header = z.object({
  docs: z.number().int().nonnegative(),
  totalLength: z.tuple([z.number().nonnegative(), z.number().nonnegative()]),
  sessions: z.array(z.string()),
  covers: z.array(z.object({ session: z.string(), from: z.number(), to: z.number() })),
  terms: z.array(z.string()),
  /** Per term: postings offset (from the postings block), byte length, document frequency. */
  postings: z.array(z.number()),
});
type Header = z.infer<typeof Header>;

function putVarint(out: number[], n: number): void {
  while (n >= 0x80) {
    out.push((n & 0x7f) | 0x80);
    n = Math.floor(n / 128);
  }
  out.push(n);
}

/** Where a doc's line is, and its BM25 length. */
export type DocRow = Pick<SegmentDoc, 'session' | 'offset' | 'bytes' | 'length'>;

/** A term and its postings as flat triples: doc id (ascending), own and context weight in tenths. */
export type TermPostings = [term: string, triples: number[]];

/** Serialises docs (in order: their position is their id) into a segment file's bytes. */
export function encodeSegment(sessions: string[], covers: Cover[], docs: readonly SegmentDoc[]): Buffer {
  const byTerm = new Map<string, number[]>();
  docs.forEach((d, id) => {
    for (const [t, w] of d.terms) {
      let list = byTerm.get(t);
      if (!list) byTerm.set(t, (list = []));
      list.push(id, Math.round(w[0] * WEIGHT_SCALE), Math.round(w[1] * WEIGHT_SCALE));
    }
  });
  const sorted = [...byTerm.keys()].sort().map((t): TermPostings => [t, byTerm.get(t) as number[]]);
  return encodeParts(sessions, covers, docs, sorted);
}

/** The bytes of a segment from its parts; `postings` in ascending term order. */
export function encodeParts(sessions: string[], covers: Cover[], docs: readonly DocRow[], postings: Iterable<TermPostings>): Buffer {
  const terms: string[] = [];
  const table: number[] = [];
  const blocks: Buffer[] = [];
  let at = 0;
  for (const [t, list] of postings) {
    const bytes: number[] = [];
    let prev = 0;
    for (let i = 0; i < list.length; i += 3) {
      putVarint(bytes, (list[i] as number) - prev);
      putVarint(bytes, list[i + 1] as number);
      putVarint(bytes, list[i + 2] as number);
      prev = list[i] as number;
    }
    terms.push(t);
    table.push(at, bytes.length, list.length / 3);
    blocks.push(Buffer.from(bytes));
    at += bytes.length;
  }
  const totalLength: FieldPair = [0, 0];
  for (const d of docs) {
    totalLength[0] += d.length[0];
    totalLength[1] += d.length[1];
  }
  const header: Header = { docs: docs.length, totalLength, sessions, covers, terms, postings: table };
  const json = Buffer.from(JSON.stringify(header));
  const len = Buffer.alloc(4);
  len.writeUInt32LE(json.length);
  const loaded = Buffer.alloc(docs.length * LOADED);
  const lines = Buffer.alloc(docs.length * 12);
  docs.forEach((d, i) => {
    loaded.writeUInt32LE(d.session, i * LOADED);
    loaded.writeFloatLE(d.length[0], i * LOADED + 4);
    loaded.writeFloatLE(d.length[1], i * LOADED + 8);
    lines.writeDoubleLE(d.offset, i * 12);
    lines.writeUInt32LE(d.bytes, i * 12 + 8);
  });
  return Buffer.concat([MAGIC, len, json, loaded, lines, ...blocks]);
}

export interface Posting {
  doc: number;
  own: number;
  context: number;
}

export class Segment {
  private readonly lookup = new Map<string, number>();
  private readonly linesAt: number;
  private readonly postingsAt: number;

  private constructor(
    readonly path: string,
    private readonly header: Header,
    /** Per doc: session index, length of its own field, length of its context field. */
    readonly docSession: Uint32Array,
    readonly ownLength: Float32Array,
    readonly contextLength: Float32Array,
    headerEnd: number,
  ) {
    header.terms.forEach((t, i) => this.lookup.set(t, i));
    this.linesAt = headerEnd + header.docs * LOADED;
    this.postingsAt = this.linesAt + header.docs * 12;
  }

  static open(path: string): Segment {
    const fd = openSync(path, 'r');
    try {
      const head = Buffer.alloc(MAGIC.length + 4);
      readSync(fd, head, 0, head.length, 0);
      if (!head.subarray(0, MAGIC.length).equals(MAGIC)) throw new AppError('state_corrupt', `${path} is not an episode index segment`);
      const jsonLen = head.readUInt32LE(MAGIC.length);
      const json = readExactly(fd, MAGIC.length + 4, jsonLen, path);
      const parsed = Header.safeParse(JSON.parse(json.toString('utf8')));
      if (!parsed.success) throw new AppError('state_corrupt', `${path}: unreadable segment header`);
      const h = parsed.data;
      const end = MAGIC.length + 4 + jsonLen;
      const loaded = readExactly(fd, end, h.docs * LOADED, path);
      const docSession = new Uint32Array(h.docs);
      const own = new Float32Array(h.docs);
      const context = new Float32Array(h.docs);
      for (let i = 0; i < h.docs; i++) {
        docSession[i] = loaded.readUInt32LE(i * LOADED);
        own[i] = loaded.readFloatLE(i * LOADED + 4);
        context[i] = loaded.readFloatLE(i * LOADED + 8);
      }
      return new Segment(path, h, docSession, own, context, end);
    } catch (err) {
      if (err instanceof SyntaxError) throw new AppError('state_corrupt', `${path}: unreadable segment header`);
      throw err;
    } finally {
      closeSync(fd);
    }
  }

  get docs(): number {
    return this.header.docs;
  }
  get totalLength(): FieldPair {
    return this.header.totalLength;
  }
  get sessions(): readonly string[] {
    return this.header.sessions;
  }
  get covers(): readonly Cover[] {
    return this.header.covers;
  }
  get terms(): readonly string[] {
    return this.header.terms;
  }

  df(term: string): number {
    const i = this.lookup.get(term);
    return i === undefined ? 0 : (this.header.postings[i * 3 + 2] as number);
  }

  /** A term's postings, read from the file (an open descriptor of it). */
  postings(fd: number, term: string): Posting[] {
    const raw = this.rawPostings(fd, term);
    const out: Posting[] = [];
    for (let i = 0; i < raw.length; i += 3)
      out.push({ doc: raw[i] as number, own: (raw[i + 1] as number) / WEIGHT_SCALE, context: (raw[i + 2] as number) / WEIGHT_SCALE });
    return out;
  }

  /** A term's postings as flat triples (doc id, own and context weight in tenths), as stored. */
  rawPostings(fd: number, term: string): number[] {
    const i = this.lookup.get(term);
    if (i === undefined) return [];
    const at = this.header.postings[i * 3] as number;
    const len = this.header.postings[i * 3 + 1] as number;
    const buf = readExactly(fd, this.postingsAt + at, len, this.path);
    const out: number[] = [];
    let pos = 0;
    let doc = 0;
    const next = (): number => {
      let n = 0;
      let mul = 1;
      for (;;) {
        const b = buf[pos++] as number;
        n += (b & 0x7f) * mul;
        if (b < 0x80) return n;
        mul *= 128;
      }
    };
    while (pos < len) {
      doc += next();
      out.push(doc, next(), next());
    }
    return out;
  }

  /** Every doc's line position, in doc order (for merges). */
  allLines(fd: number): { offset: number; bytes: number }[] {
    const b = readExactly(fd, this.linesAt, this.docs * 12, this.path);
    const out: { offset: number; bytes: number }[] = [];
    for (let i = 0; i < this.docs; i++) out.push({ offset: b.readDoubleLE(i * 12), bytes: b.readUInt32LE(i * 12 + 8) });
    return out;
  }

  /** Where a doc's line is in its session file. */
  line(fd: number, doc: number): { session: string; offset: number; bytes: number } {
    const b = readExactly(fd, this.linesAt + doc * 12, 12, this.path);
    return { session: this.header.sessions[this.docSession[doc] as number] as string, offset: b.readDoubleLE(0), bytes: b.readUInt32LE(8) };
  }
}

export function readExactly(fd: number, position: number, length: number, path: string): Buffer {
  const buf = Buffer.alloc(length);
  let got = 0;
  while (got < length) {
    const n = readSync(fd, buf, got, length - got, position + got);
    if (n === 0) throw new AppError('state_corrupt', `${path} ends early`);
    got += n;
  }
  return buf;
}
