/**
 * The one clock. Everything that stamps or compares times reads it, so tests can move time
 * (NIGHTSHIFT_CLOCK_OFFSET_MS shifts the daemon's clock, e.g. to exercise retention).
 */
let offsetMs = Number(process.env.NIGHTSHIFT_CLOCK_OFFSET_MS ?? 0) || 0;

export function now(): Date {
  return new Date(Date.now() + offsetMs);
}

export function nowMs(): number {
  return Date.now() + offsetMs;
}

export function setClockOffset(ms: number): void {
  offsetMs = ms;
}
