import type { DreamService } from '../../dream/service.js';
import { AppError } from '../../errors.js';
import { writeWithBackpressure } from '../../sys/backpressure.js';
import type { Handlers } from '../http.js';
import type { Streams } from '../streams.js';

export function dreamHandlers(dreams: DreamService, streams: Streams): Pick<Handlers, 'dream' | 'dreamProgress' | 'listDreams' | 'getDream'> {
  return {
    dream: async ({ body }) => ({ json: { report: await streams.hold(dreams.run({ dryRun: body.dryRun, trigger: 'manual' })) } }),
    // Progress lines while it runs (NDJSON), then the report as the last line.
    dreamProgress: async ({ body, res }) => {
      if (dreams.isRunning) throw new AppError('conflict', 'a dream is already running; see `nightshift status`');
      // Headers first: the phases of a small dream may all end before run() returns.
      res.writeHead(200, { 'content-type': 'application/x-ndjson' });
      const job = dreams.run({ dryRun: body.dryRun, trigger: 'manual' }, (phase, detail) => {
        void writeWithBackpressure(res, `${JSON.stringify({ phase, detail })}\n`).catch(() => undefined);
      });
      try {
        const report = await job;
        res.end(`${JSON.stringify({ report })}\n`);
      } catch (err) {
        res.end(`${JSON.stringify({ error: { code: 'internal', message: (err as Error).message } })}\n`);
      }
      return 'streamed';
    },
    listDreams: async () => ({
      json: {
        dreams: dreams.reports.list().map((r) => ({
          id: r.id,
          trigger: r.trigger,
          dryRun: r.dryRun,
          startedAt: r.startedAt,
          durationMs: r.durationMs,
          ...(r.error !== undefined && { error: r.error }),
          merged: r.phases.consolidate.merged,
          superseded: r.phases.consolidate.superseded,
          archived: r.phases.prune.archived,
        })),
      },
    }),
    getDream: async ({ params }) => ({ json: { report: dreams.reports.get(params.id) } }),
  };
}
