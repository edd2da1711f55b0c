/** Timers for `run --timeout`: one per running task, armed from its start time (again after a daemon restart). */
import { nowMs } from '../clock.js';

export class Deadlines {
  private readonly timers = new Map<string, NodeJS.Timeout>();

  constructor(private readonly fire: (id: string) => void) {}

  /** Fires `seconds` after `startedAt` (at once when that has passed already). */
  arm(id: string, startedAt: string, seconds: number): void {
    this.forget(id);
    const delay = Math.max(0, Date.parse(startedAt) + seconds * 1000 - nowMs());
    const timer = setTimeout(() => {
      this.timers.delete(id);
      this.fire(id);
    }, delay);
    timer.unref();
    this.timers.set(id, timer);
  }

  forget(id: string): void {
    clearTimeout(this.timers.get(id));
    this.timers.delete(id);
  }

  stop(): void {
    for (const t of this.timers.values()) clearTimeout(t);
    this.timers.clear();
  }
}
