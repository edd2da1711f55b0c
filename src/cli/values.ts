/** Option values of the task commands, checked the same way by commander and by the fast path. */
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

export function resolvePath(p: string): string {
  return p.startsWith('/') ? p : `${process.cwd()}/${p}`;
}
