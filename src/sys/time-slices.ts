/**
 * Long work on the daemon's one thread, cut into slices: between them, whatever else waits (a
 * hook, a task start, a status request) gets its turn. A pass costs nothing until a slice is used
 * up; then it yields once to the event loop.
 *
 * The slice is the thread's, not one job's: jobs that run side by side (an ingest's merge and the
 * read ahead of the next file) wait for one shared turn and resume after the same poll for I/O,
 * so a waiting request is held up by one slice, not by a slice of each.
 */
import { setImmediate as turn } from 'node:timers/promises';

/** A slice: long enough that yielding costs little, short enough that a waiting request hardly notices. */
export const SLICE_MS = 8;

/** When the thread last came back from a turn of the event loop that a slicer waited for. */
let turnAt = performance.now();
let nextTurn: Promise<void> | undefined;

const sharedTurn = (): Promise<void> =>
  (nextTurn ??= turn().then(() => {
    nextTurn = undefined;
    turnAt = performance.now();
  }));

export class TimeSlices {
  private since = performance.now();

  constructor(private readonly ms = SLICE_MS) {}

  /** Yields to the event loop once this slice is used up (by this job or by another since the last turn). */
  async pass(): Promise<void> {
    if (performance.now() - Math.max(this.since, turnAt) < this.ms) return;
    await sharedTurn();
    this.since = turnAt;
  }
}
