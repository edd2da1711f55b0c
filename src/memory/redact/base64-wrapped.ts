/**
 * Secrets wrapped in base64 (`echo … | base64 -d`, a k8s Secret's `data:`, a blob in a config):
 * a long base64 run that decodes to printable text is decoded and scanned with the other layers.
 * Base64 images, fonts and lock-file hashes decode to binary and are skipped.
 */
import type { Span } from './near-words.js';

const BASE64 = /(?<![A-Za-z0-9+/])(?:[A-Za-z0-9+/]{4}){4,}(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=|[A-Za-z0-9+/]{2,3})?(?![A-Za-z0-9+/=])/g;
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

/** Spans of base64 runs whose decoded text `holdsSecret`, leaving the `claimed` ones alone. */
export function wrappedSecrets(text: string, claimed: readonly Span[], holdsSecret: (decoded: string) => boolean): Span[] {
  const hits: Span[] = [];
  for (const m of text.matchAll(BASE64)) {
    const start = m.index;
    const end = start + m[0].length;
    if (m[0].length > MAX_RUN || claimed.some((c) => c.start < end && start < c.end)) continue;
    const decoded = Buffer.from(m[0], 'base64').toString('latin1');
    if (printable(decoded) && holdsSecret(decoded)) hits.push({ start, end });
  }
  return hits;
}
