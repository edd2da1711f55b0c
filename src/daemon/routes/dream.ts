import { DreamId, DreamRequest } from '../../api/dream.js';
import type { DreamService } from '../../dream/service.js';
import { AppError } from '../../errors.js';
import { parse, type Route } from '../http.js';
import type { Streams } from '../streams.js';
import { writeWithBackpressure } from './tasks.js';

export function dreamRoutes(dreams: DreamService, streams: Streams): Route[] {
  return [
    {
      method: 'POST',
      path: '/v1/dreams',
      handler: async ({ body }) => {
        const req = parse(DreamRequest, await body(), 'dream request');
        return { status: 201, json: { report: await streams.hold(dreams.run({ dryRun: req.dryRun, trigger: 'manual' })) } };
      },
    },
    {
      method: 'POST',
      path: '/v1/dreams/progress',
      // Progress lines while it runs (NDJSON), then the report as the last line.
      handler: async ({ body, res }) => {
        const req = parse(DreamRequest, await body(), 'dream request');
        if (dreams.isRunning) throw new AppError('conflict', 'a dream is already running; see `nightshift status`');
        // Headers first: the phases of a small dream may all end before run() returns.
        res.writeHead(200, { 'content-type': 'application/x-ndjson' });
        const job = dreams.run({ dryRun: req.dryRun, trigger: 'manual' }, (phase, detail) => {
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
    },
    {
      method: 'GET',
      path: '/v1/dreams',
      handler: async () => ({
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
    },
    {
      method: 'GET',
      path: '/v1/dreams/:id',
      handler: async ({ params }) => ({ json: { report: dreams.reports.get(parse(DreamId, params.id, 'dream id')) } }),
    },
  ];
}
