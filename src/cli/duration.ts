/** DURATION option values in milliseconds (the monitor's), read as `run --timeout` reads them. */
import { duration } from './values.js';

export function durationMs(what: string) {
  const seconds = duration(what);
  return (v: string): number => Math.round(seconds(v) * 1000);
}
