/** A monitor's recent checks: a bounded ring, newest last, and the median latency of the good ones. */
import type { CheckResult } from '../api/monitors.js';

/** Checks kept per monitor (at a 30 s interval, the last 50 minutes). */
export const HISTORY_SIZE = 100;

export function pushCheck(history: CheckResult[], r: CheckResult, size = HISTORY_SIZE): CheckResult[] {
  const next = [...history, r];
  return next.length > size ? next.slice(next.length - size) : next;
}

/** Median latency of the checks that got an answer; null when none did. */
export function p50(history: CheckResult[]): number | null {
  const xs = history
    .filter((h) => h.state !== 'down' && h.latencyMs !== null)
    .map((h) => h.latencyMs as number)
    .sort((a, b) => a - b);
  if (xs.length === 0) return null;
  const mid = Math.floor(xs.length / 2);
  return xs.length % 2 === 1 ? (xs[mid] as number) : Math.round(((xs[mid - 1] as number) + (xs[mid] as number)) / 2);
}
