/**
 * Tolerant field reads for transcript lines. Transcript formats change without notice, so a line is
 * read field by field: a field of an unexpected type is ignored, never a reason to drop the line
 * (a zod schema would reject the whole line or need a fallback on every field).
 */

export type JsonRecord = Record<string, unknown>;

export function isRecord(value: unknown): value is JsonRecord {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A non-empty string, or undefined. */
export function str(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

export function records(value: unknown): JsonRecord[] {
  return Array.isArray(value) ? value.filter(isRecord) : [];
}

/** JSON.parse that reports failure as undefined instead of throwing. */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * A timestamp as the transcript wrote it, if it is one: ISO strings are kept verbatim; epoch
 * numbers (seconds or milliseconds) become ISO.
 */
export function timestamp(value: unknown): string | undefined {
  if (typeof value === 'string') return Number.isNaN(Date.parse(value)) ? undefined : value;
  if (typeof value === 'number' && Number.isFinite(value) && value > 0) {
    // Below 1e11 a millisecond epoch would be 1973; such a number is seconds.
    return new Date(value < 1e11 ? value * 1000 : value).toISOString();
  }
  return undefined;
}

/** Only `true` sets a flag, so messages carry no `false`/undefined noise. */
export function flag<K extends string>(key: K, value: unknown): Partial<Record<K, true>> {
  return value === true ? ({ [key]: true } as Record<K, true>) : {};
}
