/**
 * Secrets broken across a line break or across two messages: "my key is sk-ant-api03-…" with the
 * rest of the key on the next line. Each half alone may pass (or only the first be caught), so at a
 * break between two runs of token characters the runs are joined, with the start of the left line
 * as context, and scanned again; a secret that spans the join masks both halves.
 * Each probe is bounded, so the cost is linear in the number of breaks.
 */

export interface JoinHit<K extends string> {
  kind: K;
  /** The masked part of the left text (its end is the left text's end). */
  left: { start: number; end: number };
  /** The masked part of the right text (its start is the right text's start). */
  right: { start: number; end: number };
}

/** A scanner of one probe: the secrets it finds, by kind and span. */
export type Scan<K extends string> = (probe: string) => { kind: K; start: number; end: number }[];

/** How far a run of token characters is followed on each side, and how much of the left line is context. */
const RUN_MAX = 1024;
const CONTEXT_MAX = 160;

const isToken = (c: number): boolean =>
  (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39) || c === 0x2b || c === 0x2f || c === 0x3d || c === 0x5f || c === 0x2d;

/**
 * A right half worth joining looks generated: 4+ characters with a digit, `_`, `-` or a case change
 * inside, and is not a name being set. A plain word at the start of the next line ("Thanks") never
 * continues a key.
 */
function continues(run: string, after: string): boolean {
  // `DB_PASSWORD=…`, `key: …`: the next line names something of its own.
  if (/=[^=]/.test(run) || after === ':') return false;
  return run.length >= 4 && (/[\d_+/=-]/.test(run) || /[a-z][A-Z]|[A-Z]{2}[a-z]/.test(run));
}

/** The secret spanning the end of `left` and the start of `right`, if their joined runs make one. */
export function joinedSecret<K extends string>(left: string, right: string, scan: Scan<K>): JoinHit<K> | undefined {
  let l = left.length;
  while (l > 0 && left.length - l < RUN_MAX && isToken(left.charCodeAt(l - 1))) l--;
  let r = 0;
  while (r < right.length && r < RUN_MAX && isToken(right.charCodeAt(r))) r++;
  if (l === left.length || !continues(right.slice(0, r), right.charAt(r))) return undefined;
  const lineStart = left.lastIndexOf('\n', l - 1) + 1;
  const from = Math.max(lineStart, l - CONTEXT_MAX);
  const probe = left.slice(from) + right.slice(0, r);
  const join = left.length - from;
  const hit = scan(probe).find((h) => h.start < join && join < h.end);
  if (hit === undefined) return undefined;
  return { kind: hit.kind, left: { start: from + hit.start, end: left.length }, right: { start: 0, end: hit.end - join } };
}

/** Every secret split across a line break inside `text`, as spans of `text` (two per secret). */
export function splitLineSecrets<K extends string>(text: string, scan: Scan<K>): { kind: K; start: number; end: number }[] {
  const hits: { kind: K; start: number; end: number }[] = [];
  for (let nl = text.indexOf('\n'); nl !== -1; nl = text.indexOf('\n', nl + 1)) {
    const leftEnd = nl > 0 && text.charCodeAt(nl - 1) === 0x0d ? nl - 1 : nl;
    // Cheap gate before any slicing: a token character on both sides of the break.
    if (leftEnd === 0 || !isToken(text.charCodeAt(leftEnd - 1)) || !isToken(text.charCodeAt(nl + 1))) continue;
    const base = Math.max(0, leftEnd - RUN_MAX - CONTEXT_MAX);
    const hit = joinedSecret(text.slice(base, leftEnd), text.slice(nl + 1, nl + 1 + RUN_MAX), scan);
    if (hit === undefined) continue;
    hits.push({ kind: hit.kind, start: base + hit.left.start, end: leftEnd }, { kind: hit.kind, start: nl + 1, end: nl + 1 + hit.right.end });
  }
  return hits;
}
