/** DURATION option values in milliseconds (the monitor's), read as `run --timeout` reads them. */
import { duration } from './values.js';

export function durationMs(what: string) {
  const seconds = duration(what);
  return (v: string): number => Math.round(seconds(v) * 1000);
}

/** 1500 → "1.5s", 250 → "250ms", 90000 → "1.5m". */
export function showDuration(ms: number): string {
  if (ms < 1000) return `${ms}ms`;
  if (ms < 60_000) return `${+(ms / 1000).toFixed(1)}s`;
  if (ms < 3_600_000) return `${+(ms / 60_000).toFixed(1)}m`;
  return `${+(ms / 3_600_000).toFixed(1)}h`;
}
