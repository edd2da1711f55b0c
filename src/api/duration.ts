/** Durations as people write them (`90`, `30s`, `5m`, `1h30m`, `250ms`): one reader for the CLI's options and workflow files. Zod-free. */

const UNIT_SECONDS: Record<string, number> = { ms: 0.001, s: 1, m: 60, h: 3600, d: 86400 };

/** Seconds, or null when `v` is not a positive duration (a bare number is seconds, and may be 0). */
export function parseDuration(v: string): number | null {
  if (/^[0-9]+(\.[0-9]+)?$/.test(v)) return Number(v);
  if (!/^([0-9]+(\.[0-9]+)?(ms|s|m|h|d))+$/.test(v)) return null;
  let total = 0;
  for (const m of v.matchAll(/([0-9]+(?:\.[0-9]+)?)(ms|s|m|h|d)/g)) total += Number(m[1]) * (UNIT_SECONDS[m[2] as string] ?? 0);
  return total > 0 ? total : null;
}

export const DURATION_WORDS = 'a duration such as 30s, 5m, 1h30m (a bare number is seconds)';
