/**
 * Timers for `run --timeout`: one per running task, armed from its start time (again after a daemon
 * restart). Time spent paused does not count: a paused task has no timer, and the deadline moves by
 * the paused time recorded in its run info (so a restart keeps it too).
 */
import type { Entry } from './model.js';
import { nowMs } from '../clock.js';

/** What acts on a passed deadline (the task runner). */
export interface TimesOut {
  timeOut(id: string): void;
}

export class Deadlines {
  private readonly timers = new Map<string, NodeJS.Timeout>();

  constructor(private readonly target: TimesOut) {}

  /** Arms the deadline of a running task with a timeout, unless it is paused (else forgets it). */
  armFor({ task, run }: Entry): void {
    if (task.state !== 'running' || task.timeoutSeconds === undefined || run?.pausedAt !== undefined) return this.forget(task.id);
    this.arm(task.id, task.startedAt, task.timeoutSeconds, run?.pausedMs ?? 0);
  }

  /** Fires `seconds` (plus the time spent paused) after `startedAt`; at once when that has passed already. */
  arm(id: string, startedAt: string, seconds: number, pausedMs = 0): void {
    this.forget(id);
    const delay = Math.max(0, Date.parse(startedAt) + seconds * 1000 + pausedMs - nowMs());
    const timer = setTimeout(() => {
      this.timers.delete(id);
      this.target.timeOut(id);
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
