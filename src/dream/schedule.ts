/**
 * The dream schedule: node-cron fires at the configured time; a dream then runs only when its
 * gates pass (long enough since the last one, enough new sessions, no ingest in progress, no dream
 * running).
 */
import type { DreamSchedule } from '../api/dream.js';
import { nowMs } from '../clock.js';
import { AppError } from '../errors.js';
import type { Config } from '../config.js';
import type { Logger } from '../log.js';
import type { MemoryService } from '../memory/index.js';
import type { DreamReports } from './reports.js';

export interface Scheduler {
  status(): DreamSchedule;
  stop(): void;
}

export async function startDreamSchedule(opts: {
  config: Config['dream'];
  memory: MemoryService;
  reports: DreamReports;
  isRunning: () => boolean;
  run: () => Promise<unknown>;
  log: Logger;
}): Promise<Scheduler> {
  const { config } = opts;
  const cron = await import('node-cron');
  const expr = config.schedule;
  if (expr !== false && !cron.validate(expr)) {
    throw new AppError('config_invalid', `dream.schedule "${expr}" is not a valid cron expression (e.g. "0 3 * * *" for 03:00 daily)`);
  }
  const task = expr === false ? null : cron.schedule(expr, () => void tick(), { name: 'dream', noOverlap: true });
  const status = (): DreamSchedule => {
    const lastDream = opts.reports.lastDream();
    const sessionsSince = opts.memory.sessions.ingestedSince(lastDream ?? undefined).length;
    const hours = lastDream === null ? Infinity : (nowMs() - Date.parse(lastDream)) / 3_600_000;
    const gates = {
      hoursSinceLast: hours >= config.minHours,
      sessionsSince: sessionsSince >= config.minSessions,
      noIngest: !opts.memory.queue.busy,
      notRunning: !opts.isRunning(),
    };
    return {
      cron: expr === false ? 'off' : expr,
      next: task?.getNextRun()?.toISOString() ?? null,
      lastDream,
      sessionsSince,
      gates,
      wouldRun: Object.values(gates).every(Boolean),
    };
  };
  async function tick(): Promise<void> {
    try {
      const s = status();
      if (!s.wouldRun) {
        opts.log.info({ gates: s.gates, sessionsSince: s.sessionsSince }, 'scheduled dream skipped: gates not passed');
        return;
      }
      await opts.run();
    } catch (err) {
      opts.log.warn({ err: (err as Error).message }, 'scheduled dream failed');
    }
  }
  return {
    status,
    stop: () => {
      Promise.resolve(task?.destroy()).catch((err: unknown) => opts.log.warn({ err: (err as Error).message }, 'stopping the dream schedule failed'));
    },
  };
}
