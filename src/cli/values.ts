/** Option values of the task commands, checked the same way by commander and by the fast path. */
import { DURATION_WORDS, parseDuration } from '../api/duration.js';
import { durationText } from '../api/format.js';
import { MAX_OFFSET, MAX_READ_BYTES, MAX_RETRY, MAX_RETRY_DELAY_SECONDS, MAX_STALL_SECONDS, MAX_TIMEOUT_SECONDS, MIN_STALL_SECONDS } from '../api/limits.js';
import { AppError } from '../errors.js';

/** Every message names the option and the range it really takes (the daemon's, from api/limits.ts). */
function wholeNumber(what: string, min: number, max: number) {
  return (v: string): number => {
    const n = /^[0-9]+$/.test(v) ? Number(v) : NaN;
    if (!(n >= min && n <= max)) throw new AppError('bad_request', `${what} must be a whole number from ${min} to ${max}, got "${v}"`);
    return n;
  };
}

export function nonNegInt(what: string, max = Number.MAX_SAFE_INTEGER) {
  return wholeNumber(what, 0, max);
}

export function positiveInt(what: string, max = Number.MAX_SAFE_INTEGER) {
  return wholeNumber(what, 1, max);
}

/** A number of seconds, from `min` to `max` when given. */
export function seconds(what: string, range: { min?: number; max?: number } = {}) {
  const { min = 0, max } = range;
  return (v: string): number => {
    const n = /^[0-9]+(\.[0-9]+)?$/.test(v) ? Number(v) : NaN;
    if (!(n >= min && (max === undefined || n <= max)))
      throw new AppError('bad_request', `${what} must be a number of seconds from ${min}${max === undefined ? '' : ` to ${max}`}, got "${v}"`);
    return n;
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

/**
 * A duration in seconds: `90`, `30s`, `5m`, `1h30m`, `1.5h`, `250ms` (a bare number is seconds);
 * `above0`: 0 is refused; `max`: at most this many seconds.
 */
export function duration(what: string, range: { above0?: boolean; max?: number } = {}) {
  const bounds = [range.above0 ? 'above 0' : '', range.max !== undefined ? `at most ${durationText(range.max * 1000)}` : ''].filter(Boolean).join(' and ');
  return (v: string): number => {
    const s = parseDuration(v);
    if (s === null || (range.above0 && s <= 0) || (range.max !== undefined && s > range.max))
      throw new AppError(
        'bad_request',
        `${what} must be ${bounds ? `a duration ${bounds} (30s, 5m, 1h30m; a bare number is seconds)` : DURATION_WORDS}, got "${v}"`,
      );
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

/** The run and output options, with the daemon's own ranges: commander and the fast path parse them alike. */
export const OPTION_VALUES = {
  timeout: duration('--timeout', { above0: true, max: MAX_TIMEOUT_SECONDS }),
  retry: nonNegInt('--retry', MAX_RETRY),
  retryDelay: duration('--retry-delay', { max: MAX_RETRY_DELAY_SECONDS }),
  stallAfter: seconds('--stall-after', { min: MIN_STALL_SECONDS, max: MAX_STALL_SECONDS }),
  offset: nonNegInt('--offset', MAX_OFFSET),
  limit: positiveInt('--limit', MAX_READ_BYTES),
} as const;
