/**
 * Cron expressions and time zones, checked once with messages a person can act on, and the next
 * firing times of an expression (node-cron: 5 fields, or 6 with seconds first).
 */
import cron, { type ScheduledTask, type TaskContext } from 'node-cron';
import { AppError } from '../errors.js';

export function checkTimeZone(tz: string): void {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
  } catch {
    throw new AppError('bad_request', `unknown time zone "${tz}"; use an IANA name such as Europe/Berlin or UTC`);
  }
}

export function checkCron(expr: string): void {
  const v = cron.validateDetailed(expr);
  if (v.valid) return;
  const why = v.errors.map((e) => `${e.field}${e.value !== undefined ? ` "${e.value}"` : ''}: ${e.message}`).join('; ');
  throw new AppError(
    'bad_request',
    `"${expr}" is not a cron expression (${why || 'unreadable'}); use 5 fields (minute hour day month weekday, e.g. "0 3 * * *") or 6 with seconds first ("*/10 * * * * *")`,
  );
}

export interface Timer {
  /** The next `count` firing times from now. */
  next(count: number): Date[];
  stop(): void;
}

/** Calls `fire` with the scheduled time at each firing. The timer does not keep the process alive. */
export function startTimer(expr: string, tz: string | null, fire: (scheduledAt: Date) => void): Timer {
  const task: ScheduledTask = cron.schedule(expr, (ctx: TaskContext) => fire(ctx.date), {
    ...(tz !== null && { timezone: tz }),
    unref: true,
    suppressMissedWarning: true,
  });
  return {
    next: (count) => task.getNextRuns(count),
    stop: () => {
      Promise.resolve(task.destroy()).catch(() => undefined);
    },
  };
}

/** The next firing times of an expression that is not running (a paused schedule). */
export function nextTimes(expr: string, tz: string | null, count: number): Date[] {
  const task = cron.createTask(expr, () => undefined, tz !== null ? { timezone: tz } : {});
  try {
    return task.getNextRuns(count);
  } finally {
    Promise.resolve(task.destroy()).catch(() => undefined);
  }
}
