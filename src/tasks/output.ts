/** A task's output.log as readers want it: its size, a byte range, its tail, a range of whole characters, where its last lines start. */
import { open, stat } from 'node:fs/promises';
import { isErrno } from '../errors.js';
import { utf8CharStart, utf8WholeEnd } from '../sys/utf8.js';

export interface Chunk {
  data: Buffer;
  offset: number;
  nextOffset: number;
  size: number;
}

/** Current size of an output file; a file not created yet has size 0. */
export async function outputSize(path: string): Promise<number> {
  try {
    return (await stat(path)).size;
  } catch (err) {
    if (isErrno(err, 'ENOENT')) return 0;
    throw err;
  }
}

/** Reads [offset, offset+limit) with one pread: O(bytes read), never O(file). Past the end → empty. */
export async function readRange(path: string, offset: number, limit: number): Promise<Chunk> {
  let fh;
  try {
    fh = await open(path, 'r');
  } catch (err) {
    if (isErrno(err, 'ENOENT')) return { data: Buffer.alloc(0), offset, nextOffset: offset, size: 0 };
    throw err;
  }
  try {
    const size = (await fh.stat()).size;
    const want = Math.max(0, Math.min(limit, size - offset));
    const data = Buffer.allocUnsafe(want);
    let got = 0;
    while (got < want) {
      const { bytesRead } = await fh.read(data, got, want - got, offset + got);
      if (bytesRead === 0) break;
      got += bytesRead;
    }
    return { data: data.subarray(0, got), offset, nextOffset: offset + got, size };
  } finally {
    await fh.close();
  }
}

/** The last `bytes` of an output (fewer when it is shorter): `offset` says where they start. */
export async function readTail(path: string, bytes: number): Promise<Chunk> {
  return readRange(path, Math.max(0, (await outputSize(path)) - bytes), bytes);
}

const TAIL_BLOCK = 64 * 1024;
const TAIL_MAX_SCAN = 16 * 1024 * 1024;

/**
 * Offset where the last `lines` lines start, scanning backwards block by block from the end
 * (at most 16 MiB, so a file of one endless line cannot make this O(file)).
 */
export async function tailOffset(path: string, lines: number): Promise<number> {
  let fh;
  try {
    fh = await open(path, 'r');
  } catch (err) {
    if (isErrno(err, 'ENOENT')) return 0;
    throw err;
  }
  try {
    const size = (await fh.stat()).size;
    if (lines === 0 || size === 0) return size;
    const buf = Buffer.allocUnsafe(TAIL_BLOCK);
    let end = size;
    let newlines = 0;
    while (end > 0 && size - end < TAIL_MAX_SCAN) {
      const start = Math.max(0, end - TAIL_BLOCK);
      const { bytesRead } = await fh.read(buf, 0, end - start, start);
      for (let i = bytesRead - 1; i >= 0; i--) {
        // A trailing newline ends the last line; it does not start a new one.
        if (start + i === size - 1) continue;
        if (buf[i] === 0x0a && ++newlines === lines) return start + i + 1;
      }
      end = start;
    }
    return end;
  } finally {
    await fh.close();
  }
}

/**
 * A read for text (JSON answers, MCP): it starts on the first byte of the character `offset` falls
 * in, holds at least one whole character whenever one is there (even when `limit` is smaller), and
 * never ends in half of one, so a reader that goes on from `nextOffset` always moves forward and
 * never sees a replacement character. The exception: the end of a `finished` output, which nothing
 * will ever complete, is given as it is.
 */
export async function readTextRange(path: string, offset: number, limit: number, finished: boolean): Promise<Chunk> {
  // A character is at most 4 bytes: 3 before the offset and 3 after the limit settle both ends.
  const back = Math.min(offset, 3);
  const raw = await readRange(path, offset - back, back + limit + 3);
  const from = raw.offset;
  if (raw.data.length <= back) return { data: Buffer.alloc(0), offset, nextOffset: offset, size: raw.size };
  const start = utf8CharStart(raw.data, back);
  const stop = Math.min(raw.data.length, back + limit);
  const atFileEnd = from + raw.data.length >= raw.size;
  let end = utf8WholeEnd(raw.data, start, stop);
  if (finished && atFileEnd && (end < 0 || stop === raw.data.length)) end = end < 0 ? raw.data.length : stop;
  if (end < 0) end = start;
  return { data: raw.data.subarray(start, end), offset: from + start, nextOffset: from + end, size: raw.size };
}
