/**
 * Path parameters as they go into a URL. Zod-free: the typed client, the light client and the
 * dashboard's bundle all fill paths with it.
 *
 * `.` and `..` survive percent-encoding (they are unreserved) and even `%2E%2E` is a dot segment to a
 * URL parser, so `group rm ..` would reach `/v1/` instead of its endpoint. No name, id or reference
 * of the API is a dot segment, so such a value is refused here, before anything is sent.
 */
import { AppError } from '../errors.js';

const WORDS: Record<string, string> = { id: 'id', name: 'name' };

/** A bad_request naming the value when it is `.` or `..`. */
export function checkPathParam(key: string, value: string): void {
  if (value === '.' || value === '..')
    throw new AppError('bad_request', `"${value}" is not a valid ${WORDS[key] ?? key}: "." and ".." are path segments, not names`);
}

/** One parameter percent-encoded, or a bad_request when it is a dot segment. */
export function encodePathParam(key: string, value: string): string {
  checkPathParam(key, value);
  return encodeURIComponent(value);
}

/** A concrete path: the template with each `:param` percent-encoded. */
export function fillPath(template: string, params: Record<string, string> = {}): string {
  return template.replace(/:([a-z]+)/g, (_m, k: string) => encodePathParam(k, params[k] ?? ''));
}
