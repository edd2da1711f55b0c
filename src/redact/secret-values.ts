/**
 * Heuristics for `name = value` secrets: which names hold secrets, and which values are real ones
 * rather than placeholders, code or ordinary words. Tuned to miss little while leaving prose, code
 * and config that merely mention passwords or tokens untouched.
 */
import { NOT_A_VALUE, PAGINATION_WORDS, PASSWORD_WORDS, PLACEHOLDER_WORDS, PLAIN_KEYS, SECRET_WORDS } from './secret-words.js';

/** What the assignment rules found: the value (quotes removed), the name it was assigned to, the char after it. */
export interface Candidate {
  value: string;
  quoted: boolean;
  name: string | undefined;
  next: string;
}

export type NameFamily = 'password' | 'secret';

function words(name: string): string[] {
  return name
    .replace(/([a-z\d])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z\d]+/)
    .filter((w) => w !== '');
}

/**
 * Whether a name holds a password or another secret. `pass`, `pwd` and `key` count only as the last
 * word after another (`DB_PASS`, `api_key`): alone they are too common (`PWD` is the shell's cwd).
 */
export function nameFamily(name: string): NameFamily | undefined {
  const parts = words(name);
  const last = parts.at(-1);
  if (last === undefined || NOT_A_VALUE.has(last)) return undefined;
  // `nextPageToken`, `cursor_token`: an opaque position in a listing, handed to whoever asks.
  if (parts.some((w) => PAGINATION_WORDS.has(w))) return undefined;
  // `PGPASSWORD`, `MYSQL_ROOTPASSWORD`: a password word fused to a prefix is still one.
  if (parts.some((w) => PASSWORD_WORDS.has(w) || /(?:password|passwd)$/.test(w))) return 'password';
  if (parts.length > 1 && (last === 'pass' || last === 'pwd')) return 'password';
  if (parts.some((w) => SECRET_WORDS.has(w)) || last === 'auth') return 'secret';
  if (parts.length > 1 && last === 'key' && !PLAIN_KEYS.has(parts.at(-2) ?? '')) return 'secret';
  return undefined;
}

/** Template variables, type names, masks and "your-key-here" stand-ins: nothing to hide. */
/** `$PW`, `%PW%`, `{{pw}}`, `<password>`, a mask already applied: a reference to a value, not one. */
export const isReference = (value: string): boolean => value === '' || /^[$%]|^\{\{|^<.*>$|^\[REDACTED/.test(value);

export function isPlaceholder(value: string): boolean {
  return (
    isReference(value) ||
    PLACEHOLDER_WORDS.has(value.toLowerCase()) ||
    /^(.)\1*$/.test(value) ||
    /^(?:your|my)[-_]|[-_]here$/i.test(value) ||
    // An upper-case identifier names a variable (`token: GITHUB_TOKEN`), it is not the secret.
    /^[A-Z][A-Z_]+$/.test(value)
  );
}

/**
 * `password = getpass()`, `token: config.token`, `key=ENV['X']`, `process.env.TOKEN`: code reading a
 * secret, not one. (An unquoted `word.word` password is taken for code too; quoted, it is masked.)
 */
export function isCodeReference(c: Candidate): boolean {
  if (c.quoted) return false;
  return c.next === '(' || c.next === '[' || /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+$/.test(c.value);
}

function isPathOrVersion(value: string): boolean {
  return /^(?:\/|\.\.?\/|~\/|[A-Za-z]:\\)/.test(value) || /\/[\w.-]+\.[a-z]{1,5}$/.test(value) || /^v?\d+(?:\.\d+)+(?:[-+][\w.]+)?$/.test(value);
}

/**
 * Generated credentials mix letters and digits; words, numbers, paths and versions do not pass.
 * Mixed case alone is not enough: it would flag CamelCase type names, and a random token of 20+
 * chars lacks a digit only ~3% of the time.
 */
export function looksRandom(value: string): boolean {
  return value.length >= 8 && /[A-Za-z]/.test(value) && /\d/.test(value) && !isPathOrVersion(value);
}

/** For prose ("the db password is hunter2"): a word with a digit or symbol in it, never a plain word. */
export function looksLikePassword(value: string): boolean {
  return value.length >= 6 && /[A-Za-z]/.test(value) && /[\d\W_]/.test(value) && !isPathOrVersion(value);
}
