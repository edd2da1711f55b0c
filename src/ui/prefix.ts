/**
 * The dashboard's private path prefix. The session cookie's Path is this prefix, so the browser
 * sends the cookie to no other path on 127.0.0.1 (cookies ignore ports: every other local server
 * would get it otherwise), and a server that does not know the prefix cannot ask for it.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';

/** `/` and 24 base64url characters (144 random bits): a path no one can guess. */
export const PREFIX = /^\/[\w-]{24}$/;

export function newPrefix(): string {
  return `/${randomBytes(18).toString('base64url')}`;
}

/** The path within the app when `path` is under `prefix` (compared in constant time), else null. */
export function pathInApp(prefix: string, path: string): string | null {
  const want = Buffer.from(prefix);
  const head = Buffer.from(path.slice(0, prefix.length));
  if (head.length !== want.length || !timingSafeEqual(head, want)) return null;
  const rest = path.slice(prefix.length);
  if (rest === '') return '/';
  return rest.startsWith('/') ? rest : null;
}
