/** UTF-8 boundaries: byte ranges cut anywhere, text handed on only in whole characters. */

/** Drops an incomplete UTF-8 sequence at the end, so text made from the bytes never holds half a character. */
export function utf8Complete(data: Buffer): Buffer {
  let i = data.length - 1;
  let cont = 0;
  while (i >= 0 && cont < 3 && ((data[i] ?? 0) & 0xc0) === 0x80) {
    i--;
    cont++;
  }
  if (i < 0) return data;
  const lead = data[i] ?? 0;
  const need = lead >= 0xf0 ? 3 : lead >= 0xe0 ? 2 : lead >= 0xc0 ? 1 : 0;
  return need > cont ? data.subarray(0, i) : data;
}

/** The longest start of `text` that is at most `bytes` bytes in UTF-8, in whole characters. */
export function utf8Head(text: string, bytes: number): string {
  // A character is at most 4 bytes (and at least one UTF-16 unit): `bytes` units always suffice.
  return utf8Complete(Buffer.from(text.slice(0, bytes)).subarray(0, bytes)).toString('utf8');
}

const isContinuation = (b: number | undefined) => b !== undefined && (b & 0xc0) === 0x80;

/** Bytes of the sequence a lead byte starts (1 for ASCII and for bytes that start none). */
function sequenceLength(lead: number | undefined): number {
  if (lead === undefined || lead < 0xc0) return 1;
  return lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : 2;
}

/**
 * Where the character holding byte `i` starts: `i` itself, or up to 3 bytes back when `i` is inside
 * a sequence whose lead byte is there (a stray continuation byte counts as a character of its own).
 */
export function utf8CharStart(buf: Buffer, i: number): number {
  for (let j = i; j >= Math.max(0, i - 3); j--) {
    if (isContinuation(buf[j])) continue;
    return j + sequenceLength(buf[j]) > i ? j : i;
  }
  return i;
}

/**
 * Where the text of `buf[start, end)` may end so that it holds whole characters only: `end`, or the
 * first byte of a character the cut splits. When that leaves nothing, the end of the first character
 * instead (at least one byte, even past `end`): a reader always moves on. -1: the first character
 * is not all in `buf` yet.
 */
export function utf8WholeEnd(buf: Buffer, start: number, end: number): number {
  let cut = end;
  for (let j = end - 1; j >= Math.max(start, end - 3); j--) {
    if (isContinuation(buf[j])) continue;
    if (j + sequenceLength(buf[j]) > end) cut = j;
    break;
  }
  if (cut > start || end <= start) return cut;
  const need = sequenceLength(buf[start]);
  let j = start + 1;
  while (j < start + need && isContinuation(buf[j])) j++;
  // Stopped by the end of the bytes, not by a byte that ends the sequence early: the rest may come.
  return j < start + need && j >= buf.length ? -1 : j;
}
