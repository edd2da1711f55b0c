/**
 * Long work on the daemon's one thread, cut into slices: between them, whatever else waits (a
 * hook, a task start, a status request) gets its turn. A pass costs nothing until a slice is used
 * up; then it yields once to the event loop.
 */
import { setImmediate as turn } from 'node:timers/promises';

/** A slice: long enough that yielding costs little, short enough that a waiting request hardly notices. */
export const SLICE_MS = 8;

export class TimeSlices {
  private since = performance.now();

  constructor(private readonly ms = SLICE_MS) {}

  /** Yields to the event loop once this slice is used up. */
  async pass(): Promise<void> {
    if (performance.now() - this.since < this.ms) return;
    await turn();
    this.since = performance.now();
  }
}
