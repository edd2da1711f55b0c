/** DURATION option values: `500ms`, `2s`, `1.5m`, `1h`; a bare number is seconds. */
import { AppError } from '../errors.js';

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

export function duration(what: string) {
  return (v: string): number => {
    const m = /^([0-9]+(?:\.[0-9]+)?)(ms|s|m|h)?$/.exec(v.trim());
    if (!m) throw new AppError('bad_request', `${what} must be a duration such as 500ms, 30s, 5m or 1h, got "${v}"`);
    return Math.round(Number(m[1]) * (UNIT_MS[m[2] ?? 's'] ?? 1000));
  };
}

/** 1500 → "1.5s", 250 → "250ms", 90000 → "1.5m". */
export function showDuration(ms: number): string {
  if (ms < 1000) return `${ms}ms`;
  if (ms < 60_000) return `${+(ms / 1000).toFixed(1)}s`;
  if (ms < 3_600_000) return `${+(ms / 60_000).toFixed(1)}m`;
  return `${+(ms / 3_600_000).toFixed(1)}h`;
}
