/**
 * Secret and personal-data redaction for anything that may become a memory: secrets, email
 * addresses, phone numbers and account names in paths are masked as `[REDACTED:<kind>]`, and a text
 * that was only about one of them is flagged so callers can drop it.
 * Detection is in layers, each leaving what an earlier one claimed: the exact provider shapes and
 * the same prefixes at any length (secret-rules, prefixed-rules), `name = value` and prose rules,
 * the maintained secretlint preset, generated-looking tokens near a secret word, and base64 that
 * decodes to any of these; then the same layers again over the joins of lines (split.ts), so a key
 * broken across a line break is masked in both halves. Personal data (personal.ts) is looked for
 * last, outside what they claimed.
 */
import { wrappedSecrets } from './base64-wrapped.js';
import { isFiller } from './entropy.js';
import { nearWordSecrets } from './near-words.js';
import { RULES, type SecretKind, type SecretRule } from './secret-rules.js';
import { lintKind, lintSecrets } from './secretlint.js';
import { findPersonal, isOneOffPointer, type PersonalHit } from './personal.js';
import { splitLineSecrets } from './split.js';

export type { SecretKind } from './secret-rules.js';
export type { PersonalHit, PersonalKind } from './personal.js';

/** Where a secret was, in the input text (the value itself is deliberately not kept). */
export interface SecretHit {
  kind: SecretKind;
  start: number;
  end: number;
}

export interface Redaction {
  text: string;
  found: SecretHit[];
  /** Personal data masked: email addresses, phone numbers, the account name in local paths. */
  personal: PersonalHit[];
  /** Something was masked and, once masked, almost nothing but talk about the secret or the personal data is left. */
  onlySecret: boolean;
  /** The text is a pointer at a screenshot or a downloaded file: true of its moment only, never a standing memory. */
  oneOffPointer: boolean;
}

/**
 * Strips the quotes around a captured value. Punctuation after an unquoted one stays masked: it
 * may be part of the secret, and masking a full stop costs less than leaking a character.
 */
function unquote(text: string, start: number, end: number): { start: number; end: number; quoted: boolean } {
  const raw = text.slice(start, end);
  const open = /^\\?["']/.exec(raw)?.[0];
  const quote = open?.slice(-1);
  if (open === undefined || quote === undefined || raw.length <= open.length || !raw.endsWith(quote)) return { start, end, quoted: false };
  const close = raw.endsWith(`\\${quote}`) ? 2 : 1;
  return { start: start + open.length, end: end - close, quoted: true };
}

type Span = Pick<SecretHit, 'start' | 'end'>;

/** `ghp_XXXX…`, `AKIAXXXX…`: a documented stand-in has the shape and nothing to hide. */
const filler = (value: string): boolean => isFiller(value.replace(/^(?:[A-Za-z]+[_-])+|^(?:AKIA|ASIA)/, ''));

/** The hit a match makes, unless it overlaps a claimed span or its rule rejects it. */
function judge(rule: SecretRule, match: RegExpExecArray, text: string, claimed: Span[]): SecretHit | undefined {
  const span = match.indices?.groups?.secret ?? match.indices?.[0];
  if (span === undefined) return undefined;
  const { start, end, quoted } = unquote(text, span[0], span[1]);
  if (end <= start || claimed.some((c) => c.start < end && start < c.end)) return undefined;
  const value = text.slice(start, end);
  if (rule.anyValue !== true && filler(value)) return undefined;
  const kind = rule.kind({ value, quoted, name: match.groups?.name, next: text.charAt(span[1]) });
  return kind === undefined ? undefined : { kind, start, end };
}

const MARKER = /\[REDACTED:\w+\]/g;
/** A mask of anything but an account name (which is part of a path, never all of a text). */
const HELD_MASK = /\[REDACTED:(?!user\])\w+\]/;

function ruleSecrets(text: string, claimed: Span[]): SecretHit[] {
  const hits: SecretHit[] = [];
  for (const rule of RULES) {
    // The patterns are shared and global; redaction is synchronous, so resetting them is safe.
    const { pattern } = rule;
    pattern.lastIndex = 0;
    for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) {
      const hit = judge(rule, match, text, claimed);
      if (hit !== undefined) {
        hits.push(hit);
        claimed.push(hit);
        continue;
      }
      // A rejected quoted value may hold a real pair (`"input": "{\"api_key\":\"…`): look inside it.
      // Other rejected matches are skipped whole; rescanning long unquoted values would be quadratic.
      const value = match.indices?.groups?.secret;
      if (value !== undefined && /^\\?["']/.test(text.slice(value[0], value[0] + 2))) pattern.lastIndex = value[0];
    }
  }
  return hits;
}

/** The preset's hits the rules did not claim, widened to the end of their token (some ranges stop short). */
function presetSecrets(text: string, claimed: Span[]): SecretHit[] {
  const hits: SecretHit[] = [];
  for (const lint of lintSecrets(text)) {
    let end = lint.end;
    while (end < text.length && /[\w+/=-]/.test(text.charAt(end))) end++;
    if (claimed.some((c) => c.start < end && lint.start < c.end) || filler(text.slice(lint.start, end))) continue;
    const hit: SecretHit = { kind: lintKind(lint.rule, text.slice(lint.start, end)), start: lint.start, end };
    hits.push(hit);
    claimed.push(hit);
  }
  return hits;
}

/** Masks from an earlier pass are claimed up front, so redacting twice changes nothing. */
const markers = (text: string): Span[] => [...text.matchAll(MARKER)].map((m) => ({ start: m.index, end: m.index + m[0].length }));

function findSecrets(text: string, nested = false): SecretHit[] {
  const claimed = markers(text);
  const hits = [...ruleSecrets(text, claimed), ...presetSecrets(text, claimed)];
  for (const span of nearWordSecrets(text, claimed)) {
    hits.push({ kind: 'secret', ...span });
    claimed.push(span);
  }
  // One level down only: base64 inside base64 is not worth a second decode of every run.
  if (!nested) for (const span of wrappedSecrets(text, claimed, (s) => findSecrets(s, true).length > 0)) hits.push({ kind: 'secret', ...span });
  return hits.sort((a, b) => a.start - b.start);
}

/** Words that only frame a secret ("my OpenAI API key is …", "my token if you need it"); anything else is real content. */
const FRAMING = new Set(
  `a an the is are was were be been am i me my mine we our us you your it its this that these those here there and or but so
  if case need needs needed want
  for to of in on at by with as from into use using used set save saved store stored remember keep note please just also now
  new old current following below above value values env export var variable equals same called named
  key keys apikey api token tokens secret secrets password passwords passwd pwd pass passphrase credential credentials cred
  creds auth authorization bearer basic access private client id login user username webhook url ssh rsa pem jwt
  openai anthropic claude github gh gitlab slack stripe aws amazon google gcp npm sendgrid redacted
  email mail e-mail address phone number mobile cell tel telephone call reach contact`.split(/\s+/),
);

/** At most this many content words besides the framing: "the staging db password is …" is only a secret. */
const MAX_CONTENT_WORDS = 2;

/**
 * "The test-mode signing secret is [REDACTED:…] (it's in 1password too)": a statement that gives a
 * secret's value says nothing once the value is masked; only what follows the value can.
 */
const GIVES_SECRET = /^[^.]*?\b(?:key|token|secret|password|passphrase|passwd|pwd|credentials?)s?\s+(?:is|are|was)\s*:?\s*\[REDACTED:(?!user\])\w+\]/i;

function onlySecret(masked: string): boolean {
  const given = GIVES_SECRET.exec(masked);
  const words = (given === null ? masked : masked.slice(given[0].length))
    .replace(MARKER, ' ')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length >= 2 && /[a-z]/.test(w) && !FRAMING.has(w));
  return words.length <= MAX_CONTENT_WORDS;
}

/** What one redaction may scan: a line past it is masked whole (see `scannable`). */
export const SCAN_BUDGET = 1024 * 1024;

export interface RedactOptions {
  /** Characters scanned at most; the default is SCAN_BUDGET. */
  budget?: number;
}

/** A span to mask and the kind its mask names. */
export type MaskHit = SecretHit | PersonalHit;

/** Secrets and personal data of a text short enough to scan, joined across its line breaks. */
function scan(text: string): { found: SecretHit[]; personal: PersonalHit[] } {
  const found = findSecrets(text);
  const claimed: Span[] = [...markers(text), ...found];
  for (const hit of splitLineSecrets(text, (probe) => findSecrets(probe, true))) {
    if (claimed.some((c) => c.start <= hit.start && hit.end <= c.end)) continue;
    found.push(hit);
    claimed.push(hit);
  }
  return { found: found.sort((a, b) => a.start - b.start), personal: findPersonal(text, claimed) };
}

/**
 * The parts of a text within the budget, as runs of whole lines, and the lines past it. A text
 * within the budget is one part; past it, lines are taken in order while they fit, and a line that
 * does not (one line of megabytes) is masked whole rather than scanned.
 */
function scannable(text: string, budget: number): { start: number; end: number; scan: boolean }[] {
  if (text.length <= budget) return [{ start: 0, end: text.length, scan: true }];
  const parts: { start: number; end: number; scan: boolean }[] = [];
  let left = budget;
  for (let start = 0; start < text.length;) {
    const nl = text.indexOf('\n', start);
    const end = nl === -1 ? text.length : nl;
    const fits = end - start <= left;
    if (fits) left -= end - start;
    const last = parts.at(-1);
    if (last !== undefined && last.scan && fits) last.end = end;
    else if (end > start || fits) parts.push({ start, end, scan: fits });
    start = end + 1;
  }
  return parts;
}

/** Masks `hits` (overlaps merge into the first) in `text`. */
export function applyMasks(text: string, hits: readonly MaskHit[]): string {
  let out = '';
  let pos = 0;
  for (const hit of [...hits].sort((a, b) => a.start - b.start || b.end - a.end)) {
    if (hit.end <= pos) continue;
    if (hit.start >= pos) out += `${text.slice(pos, hit.start)}[REDACTED:${hit.kind}]`;
    pos = hit.end;
  }
  return out + text.slice(pos);
}

/**
 * Masks the secrets and personal data of `text`. Linear in its length: every layer is a bounded
 * scan, and what is past the budget is masked, never scanned.
 */
export function redact(text: string, options: RedactOptions = {}): Redaction {
  const found: SecretHit[] = [];
  const personal: PersonalHit[] = [];
  for (const part of scannable(text, options.budget ?? SCAN_BUDGET)) {
    if (!part.scan) {
      found.push({ kind: 'unscanned', start: part.start, end: part.end });
      continue;
    }
    const r = part.start === 0 && part.end === text.length ? scan(text) : scan(text.slice(part.start, part.end));
    for (const h of r.found) found.push({ ...h, start: h.start + part.start, end: h.end + part.start });
    for (const h of r.personal) personal.push({ ...h, start: h.start + part.start, end: h.end + part.start });
  }
  const out = applyMasks(text, [...found, ...personal]);
  // An account name is a part of a path, and the path is content: it never makes a text only personal.
  // A mask already in the text counts too: a message masked as it was read is still only a secret.
  const masked = found.length + personal.filter((p) => p.kind !== 'user').length > 0 || HELD_MASK.test(text);
  return { text: out, found, personal, onlySecret: masked && onlySecret(out), oneOffPointer: isOneOffPointer(out) };
}
