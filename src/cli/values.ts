/** Option values of the task commands, checked the same way by commander and by the fast path. */
import { DURATION_WORDS, parseDuration } from '../api/duration.js';
import { AppError } from '../errors.js';

export function nonNegInt(what: string) {
  return (v: string): number => {
    if (!/^[0-9]+$/.test(v)) throw new AppError('bad_request', `${what} must be a non-negative integer, got "${v}"`);
    return Number(v);
  };
}

export function positiveInt(what: string) {
  return (v: string): number => {
    if (!/^[1-9][0-9]*$/.test(v)) throw new AppError('bad_request', `${what} must be a positive integer, got "${v}"`);
    return Number(v);
  };
}

export function seconds(what: string) {
  return (v: string): number => {
    if (!/^[0-9]+(\.[0-9]+)?$/.test(v)) throw new AppError('bad_request', `${what} must be a non-negative number of seconds, got "${v}"`);
    return Number(v);
  };
}

export function envPair(v: string, acc: Record<string, string>): Record<string, string> {
  const eq = v.indexOf('=');
  if (eq <= 0) throw new AppError('bad_request', `--env takes KEY=VALUE, got "${v}"`);
  return { ...acc, [v.slice(0, eq)]: v.slice(eq + 1) };
}

/** `--label K=V`, repeatable (the daemon checks the key). */
export function labelPair(v: string, acc: Record<string, string> | undefined): Record<string, string> {
  const eq = v.indexOf('=');
  if (eq <= 0) throw new AppError('bad_request', `--label takes KEY=VALUE, got "${v}"`);
  return { ...(acc ?? {}), [v.slice(0, eq)]: v.slice(eq + 1) };
}

export function resolvePath(p: string): string {
  return p.startsWith('/') ? p : `${process.cwd()}/${p}`;
}

/** A duration in seconds: `90`, `30s`, `5m`, `1h30m`, `1.5h`, `250ms` (a bare number is seconds). */
export function duration(what: string) {
  return (v: string): number => {
    const s = parseDuration(v);
    if (s === null) throw new AppError('bad_request', `${what} must be ${DURATION_WORDS}, got "${v}"`);
    return s;
  };
}

/** `--after 3,4 --after 5`: task ids, accumulated. */
export function idList(v: string, acc: string[] | undefined): string[] {
  const ids = v.split(',').map((s) => s.trim());
  for (const id of ids)
    if (!/^[1-9][0-9]{0,11}$/.test(id)) throw new AppError('bad_request', `--after takes task ids separated by commas, e.g. 3,4; got "${v}"`);
  return [...(acc ?? []), ...ids];
}
