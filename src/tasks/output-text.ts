import { utf8CharStart, utf8WholeEnd } from '../sys/utf8.js';
import { readRange, type Chunk } from './output.js';

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
