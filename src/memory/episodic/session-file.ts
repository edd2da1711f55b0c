/**
 * One session's episodes: a JSONL file, appended to and never rewritten. A crash can leave a torn
 * last line; it is cut off before the next append (the ingest that wrote it did not finish, so it
 * runs again and writes the episode whole). An append skips episodes the file already holds, so a
 * replayed ingest writes no line twice.
 */
import { closeSync, fstatSync, fsyncSync, ftruncateSync, openSync, readFileSync, readSync, renameSync, rmSync, writeSync } from 'node:fs';
import { diskFullError, isErrno } from '../../errors.js';
import { Episode } from './types.js';

export interface Line {
  offset: number;
  bytes: number;
  episode: Episode;
}

/** Parses JSONL bytes starting at `base` (the file offset of `buf`); lines that do not parse are skipped. */
export function parseLines(buf: Buffer, base: number): Line[] {
  const out: Line[] = [];
  let start = 0;
  for (let nl = buf.indexOf(10, start); nl !== -1; nl = buf.indexOf(10, start)) {
    if (nl > start) {
      const e = parseEpisode(buf.toString('utf8', start, nl));
      if (e) out.push({ offset: base + start, bytes: nl - start, episode: e });
    }
    start = nl + 1;
  }
  return out;
}

function parseEpisode(line: string): Episode | undefined {
  try {
    const r = Episode.safeParse(JSON.parse(line));
    return r.success ? r.data : undefined;
  } catch {
    return undefined;
  }
}

/** The file's complete lines (a torn last line is not one) and where they end. Missing file: none. */
export function readSessionFile(path: string): { lines: Line[]; end: number } {
  let buf: Buffer;
  try {
    buf = readFileSync(path);
  } catch (err) {
    if (isErrno(err, 'ENOENT')) return { lines: [], end: 0 };
    throw err;
  }
  return { lines: parseLines(buf, 0), end: buf.lastIndexOf(10) + 1 };
}

/** Reads single lines of session files, keeping each file open until `close`. */
export class SessionReader {
  private readonly fds = new Map<string, number | undefined>();

  constructor(private readonly pathOf: (key: string) => string) {}

  /** The line, or undefined when it is not there (any more) or does not parse. */
  read(key: string, offset: number, bytes: number): Episode | undefined {
    let fd = this.fds.get(key);
    if (!this.fds.has(key)) {
      try {
        fd = openSync(this.pathOf(key), 'r');
      } catch (err) {
        if (!isErrno(err, 'ENOENT')) throw err;
      }
      this.fds.set(key, fd);
    }
    if (fd === undefined) return undefined;
    const buf = Buffer.alloc(bytes);
    const n = readSync(fd, buf, 0, bytes, offset);
    return n === bytes ? parseEpisode(buf.toString('utf8')) : undefined;
  }

  close(): void {
    for (const fd of this.fds.values()) if (fd !== undefined) closeSync(fd);
    this.fds.clear();
  }
}

/**
 * Appends the episodes the file does not hold yet (by message id), after cutting off a torn tail,
 * and syncs. Returns every complete line before the append (`before`) and the new ones (`added`).
 */
export function appendEpisodes(path: string, episodes: readonly Episode[]): { before: Line[]; added: Line[]; size: number } {
  const fd = openSync(path, 'a+', 0o600);
  try {
    let size = fstatSync(fd).size;
    const buf = Buffer.alloc(size);
    for (let got = 0; got < size;) {
      const n = readSync(fd, buf, got, size - got, got);
      if (n === 0) break;
      got += n;
    }
    const end = buf.lastIndexOf(10) + 1;
    if (end < size) {
      ftruncateSync(fd, end);
      size = end;
    }
    const before = parseLines(buf.subarray(0, end), 0);
    const known = new Set(before.map((l) => l.episode.messageId));
    const added: Line[] = [];
    const chunks: Buffer[] = [];
    let at = size;
    for (const e of episodes) {
      if (known.has(e.messageId)) continue;
      known.add(e.messageId);
      const line = Buffer.from(`${JSON.stringify(e)}\n`);
      added.push({ offset: at, bytes: line.length - 1, episode: e });
      chunks.push(line);
      at += line.length;
    }
    if (chunks.length > 0) {
      const all = Buffer.concat(chunks);
      try {
        let done = 0;
        while (done < all.length) done += writeSync(fd, all, done, all.length - done);
        fsyncSync(fd);
      } catch (err) {
        // A full disk: what was written is cut off here, as a torn line would be at the next append.
        try {
          ftruncateSync(fd, size);
        } catch {
          // left torn: cut off before the next append
        }
        throw diskFullError(err, path);
      }
    }
    return { before, added, size: at };
  } finally {
    closeSync(fd);
  }
}

/** Writes a session file whole (temp file, fsync, rename): a re-ingest replacing what it held. */
export function writeSessionFile(path: string, episodes: readonly Episode[]): void {
  const tmp = `${path}.tmp`;
  const fd = openSync(tmp, 'w', 0o600);
  try {
    const buf = Buffer.from(episodes.map((e) => `${JSON.stringify(e)}\n`).join(''));
    let done = 0;
    while (done < buf.length) done += writeSync(fd, buf, done, buf.length - done);
    fsyncSync(fd);
  } catch (err) {
    closeSync(fd);
    rmSync(tmp, { force: true });
    throw diskFullError(err, path);
  }
  closeSync(fd);
  renameSync(tmp, path);
}
