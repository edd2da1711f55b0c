/**
 * Secrets wrapped in base64 (`echo … | base64 -d`, a k8s Secret's `data:`, a blob in a config):
 * a long base64 run that decodes to printable text is decoded and scanned with the other layers.
 * Base64 images, fonts and lock-file hashes decode to binary and are skipped.
 */
import type { Span } from './near-words.js';

const MIN_RUN = 16;
/** Bigger runs are files, not credentials; decoding them on every redaction would cost for nothing. */
const MAX_RUN = 4096;

function printable(s: string): boolean {
  if (s.length === 0) return false;
  let bad = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if ((c < 0x20 && c !== 0x0a && c !== 0x09 && c !== 0x0d) || c > 0x7e) bad++;
  }
  return bad === 0;
}

const isBase64Char = (c: number): boolean => (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39) || c === 0x2b || c === 0x2f;

/**
 * Maximal runs of base64 characters (up to two `=` of padding), found by one walk over the text.
 * A regex with a repeated group keeps a backtracking entry per repetition, which overflows the stack
 * on a run of a few megabytes.
 */
function* runs(text: string): Generator<Span> {
  let i = 0;
  while (i < text.length) {
    if (!isBase64Char(text.charCodeAt(i))) {
      i++;
      continue;
    }
    const start = i;
    while (i < text.length && isBase64Char(text.charCodeAt(i))) i++;
    const body = i - start;
    let pad = 0;
    while (pad < 2 && text.charCodeAt(i) === 0x3d) {
      i++;
      pad++;
    }
    // More padding than base64 has, or a length no encoder writes: not an encoded value.
    if (text.charCodeAt(i) === 0x3d || body < MIN_RUN || (pad > 0 && (body + pad) % 4 !== 0) || body % 4 === 1) continue;
    yield { start, end: i };
  }
}

/** Spans of base64 runs whose decoded text `holdsSecret`, leaving the `claimed` ones alone. */
export function wrappedSecrets(text: string, claimed: readonly Span[], holdsSecret: (decoded: string) => boolean): Span[] {
  const hits: Span[] = [];
  for (const { start, end } of runs(text)) {
    if (end - start > MAX_RUN || claimed.some((c) => c.start < end && start < c.end)) continue;
    const decoded = Buffer.from(text.slice(start, end), 'base64').toString('latin1');
    if (printable(decoded) && holdsSecret(decoded)) hits.push({ start, end });
  }
  return hits;
}
