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
