/**
 * Layer 2: a long token that looks generated, in the same clause as a secret word. Catches prose
 * with a qualifier between the name and the value ("My github token for the release script is …",
 * "use … as the webhook secret") that no `name = value` rule reaches. Hashes a tool printed are
 * spared: hex in a clause about commits, digests or caches, UUIDs, account SIDs, data URIs, SRI and
 * `sha256:`.
 */
import { looksGenerated } from './entropy.js';

export interface Span {
  start: number;
  end: number;
}

const SECRET_WORD =
  /(?<![A-Za-z])(?:api[-_ ]?keys?|keys?|tokens?|secrets?|passwords?|passwd|passphrase|credentials?|creds|auth|authorization|bearer|pat|dsn)(?![a-z])/i;
/** A clause ends at a line end, `;`, or `.`, `!`, `?` before a space. Commas do not end one. */
const CLAUSE = /[^\n;]+?(?:[.!?](?=\s|$)|(?=[\n;])|$)/g;
const TOKEN = /(?<![\w+/=.~-])[A-Za-z0-9+/][\w+/=.~-]{15,}/g;
const HASH_WORD =
  /\b(?:commits?|sha\d*|hash(?:es)?|digests?|checksums?|integrity|revisions?|rev|git|merge|cherry-pick|revert|bisect(?:ed)?|fingerprints?|etag|cache|trace(?:parent)?|span|objectid|build)\b/i;
/** Twilio's resource ids (`AC` account, `MG` messaging service, `SK` API key…): two capitals and 32 hex, public. */
const SID = /^[A-Z]{2}[0-9a-f]{32}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const HEX = /^[0-9a-f]+$|^[0-9A-F]+$/;
/** What a token right after these is: an encoded file, a digest, a public key, a hash in a lock file. */
const ENCODED_BEFORE = /(?:base64,|sha\d{1,3}[-:]|md5[-:]|h1:|0x|ssh-(?:ed25519|rsa|dss) |ecdsa-sha2-nistp\d+ )$/i;
/** Prefixes of values that are public or digests: Stripe publishable keys, SRI hashes. */
const PUBLIC_PREFIX = /^(?:pk_(?:live|test)_|sha\d{1,3}[-:]|md5[-:])/i;

function candidate(token: string, before: string, clause: string): boolean {
  const value = token.replace(/\.+$/, '');
  if (value.includes('://') || ENCODED_BEFORE.test(before) || PUBLIC_PREFIX.test(value)) return false;
  // A separator-split token (`token-svc-7d9f8b6c4-x2kq9`, `/v1/keys/<uuid>`) is judged by its longest part.
  const part = value.split(/[-_./]/).reduce((a, b) => (b.length > a.length ? b : a), '');
  if (part.length < 12 || SID.test(value) || UUID.test(value) || UUID.test(value.split('/').at(-1) ?? '')) return false;
  // 40 hex is a git commit; other hex is a hash when the clause speaks of commits, digests, caches.
  if (HEX.test(part) && (part.length === 40 || HASH_WORD.test(clause))) return false;
  return looksGenerated(value.includes('/') ? part : value).generated;
}

/** Spans of generated-looking tokens near a secret word, leaving the `claimed` ones alone. */
export function nearWordSecrets(text: string, claimed: readonly Span[]): Span[] {
  const hits: Span[] = [];
  for (const clause of text.matchAll(CLAUSE)) {
    if (!SECRET_WORD.test(clause[0])) continue;
    for (const m of clause[0].matchAll(TOKEN)) {
      const start = clause.index + m.index;
      const end = start + m[0].replace(/\.+$/, '').length;
      if (claimed.some((c) => c.start < end && start < c.end)) continue;
      if (candidate(m[0], clause[0].slice(Math.max(0, m.index - 24), m.index), clause[0])) hits.push({ start, end });
    }
  }
  return hits;
}
