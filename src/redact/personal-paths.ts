/**
 * Local paths that carry the person's account name: `/home/NAME/…`, `/Users/NAME/…` (also under
 * `/var`, `/mnt/c`), `C:\Users\NAME\…` in any slash or JSON-escaped form. Only the name segment is
 * masked, so the rest of the path still says what it points at. Also: whether a text is a one-off
 * pointer at a screenshot or a downloaded file, which says nothing that lasts.
 */
import type { PersonalHit } from './personal-kinds.js';

const UNIX = /(?<![\w.-])(?:\/[\w.-]+)*\/(?:home|Users)\/(?<name>[^\s/\\"'`<>:|*?()[\]{},;]+)/dg;
const WINDOWS = /(?<![\w])[A-Za-z]:(?:\\\\|\\|\/)(?:Users|Documents and Settings)(?:\\\\|\\|\/)(?<name>[^\s/\\"'`<>:|*?()[\]{},;]+)/dg;

/** Account names that are no one's: shared folders, CI and container defaults, placeholders. */
const NO_ONE = new Set([
  'shared',
  'public',
  'default',
  'default user',
  'all users',
  'guest',
  'runner',
  'node',
  'ubuntu',
  'user',
  'username',
  'name',
  'you',
  'me',
]);
const PLACEHOLDER = /^(?:[$%<{]|\.\.\.|…|\[REDACTED)/;

/** A `/home/…` inside a URL is the site's path, not a local account. */
function inUrl(text: string, at: number): boolean {
  const token = text.slice(0, at).split(/\s/).pop() ?? '';
  return token.includes('://');
}

export function userPathSpans(text: string): PersonalHit[] {
  if (!/home|Users|Documents and Settings/.test(text)) return [];
  const spans: PersonalHit[] = [];
  for (const pattern of [UNIX, WINDOWS]) {
    pattern.lastIndex = 0;
    for (const m of text.matchAll(pattern)) {
      const name = m.groups?.name;
      const at = m.indices?.groups?.name;
      if (name === undefined || at === undefined) continue;
      if (NO_ONE.has(name.toLowerCase()) || PLACEHOLDER.test(name) || inUrl(text, at[0])) continue;
      spans.push({ kind: 'user', start: at[0], end: at[1] });
    }
  }
  return spans;
}

const IMAGE = String.raw`\.(?:png|jpe?g|gif|webp|heic|bmp|tiff?)\b`;
/** A screen capture by the names the common systems give them, or an image in a temporary folder. */
const SCREENSHOT = new RegExp(
  String.raw`\b(?:screen ?shot|screen capture|capture d.écran|bildschirmfoto|schermafbeelding|captura de pantalla)\b[^\n]{0,60}?${IMAGE}|(?:/tmp/|/var/folders/|TemporaryItems|\\Temp\\)\S*${IMAGE}`,
  'i',
);
/** A file in a place things land for a moment: downloads, the desktop, a temporary folder. */
const TRANSIENT = /[/\\](?:Downloads|Desktop)[/\\]|^["'`(]?\/tmp\/|\/var\/folders\//i;
const WORD = /[a-z]{3,}/gi;
const MARKER = /\[REDACTED:\w+\]/g;
/** At most this many words of its own beside the pointer: "see ~/Downloads/report.pdf" is only a pointer. */
const MAX_OWN_WORDS = 4;

/**
 * A text whose point is a screenshot, or a path into downloads, the desktop or a temporary folder
 * with almost nothing around it: true of one moment of one session, never a standing memory.
 */
export function isOneOffPointer(text: string): boolean {
  if (SCREENSHOT.test(text)) return true;
  if (!/Downloads|Desktop|\/tmp\/|\/var\/folders\//i.test(text)) return false;
  const tokens = text.replace(MARKER, '').split(/\s+/);
  const own = tokens.filter((t) => !TRANSIENT.test(t));
  if (own.length === tokens.length) return false;
  return (own.join(' ').match(WORD) ?? []).length <= MAX_OWN_WORDS;
}
