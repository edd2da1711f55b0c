import { createReadStream } from 'node:fs';

/** One complete line of a file and its byte range. */
export interface Line {
  /** Without its line ending (`\n` or `\r\n`); empty when `oversized`. */
  text: string;
  /** Byte offset of the line's first byte. */
  start: number;
  /** Byte offset just past its `\n`: where a later read resumes. */
  end: number;
  /** Longer than the cap: skipped without being buffered. */
  oversized: boolean;
  /** An oversized last line whose newline has not come (yet): `end` is the file's end, not a resume point. */
  open?: true;
}

/** Far above any real transcript line (a pasted image is a few MB), low enough to bound memory. */
export const MAX_LINE_BYTES = 64 * 1024 * 1024;
const CHUNK_BYTES = 1024 * 1024;
const NEWLINE = 0x0a;

/**
 * The complete lines of `file` from byte `start` on, read chunk by chunk, so memory holds one chunk
 * plus the longest line. A last line without its `\n` is not yielded: it may still be being written.
 * Unless it is over the cap already: then it can never be read, whatever comes, and is yielded as
 * oversized and `open` (so a file that is one such line is not taken for an empty one).
 *
 * Not node:readline: it cannot say where a line starts in bytes, ends lines at a lone `\r` too, and
 * hands out an unterminated last line like any other, which would all make resume offsets wrong.
 */
export async function* readLines(file: string, start = 0, maxLineBytes = MAX_LINE_BYTES): AsyncGenerator<Line> {
  const stream = createReadStream(file, { start, highWaterMark: CHUNK_BYTES });
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let lineStart = start;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      let pos = 0;
      while (pos < chunk.length) {
        const nl = chunk.indexOf(NEWLINE, pos);
        if (nl === -1) {
          // Keep the piece only while the line can still fit; past the cap just count its bytes.
          pendingBytes += chunk.length - pos;
          if (pendingBytes > maxLineBytes) pending = [];
          else pending.push(chunk.subarray(pos));
          break;
        }
        const bytes = pendingBytes + nl - pos;
        const oversized = bytes > maxLineBytes;
        let text = '';
        if (!oversized) {
          const piece = chunk.subarray(pos, nl);
          text = (pending.length === 0 ? piece : Buffer.concat([...pending, piece])).toString('utf8');
          if (text.endsWith('\r')) text = text.slice(0, -1);
          if (lineStart === 0 && text.startsWith('\uFEFF')) text = text.slice(1);
        }
        yield { text, start: lineStart, end: lineStart + bytes + 1, oversized };
        lineStart += bytes + 1;
        pending = [];
        pendingBytes = 0;
        pos = nl + 1;
      }
    }
    if (pendingBytes > maxLineBytes) yield { text: '', start: lineStart, end: lineStart + pendingBytes, oversized: true, open: true };
  } finally {
    stream.destroy();
  }
}
