import type { ServerResponse } from 'node:http';
import type { DreamProgressLine } from '../../api/dream.js';
import { reportMemories } from '../../dream/expand.js';
import type { DreamService } from '../../dream/service.js';
import type { MemoryStore } from '../../memory/index.js';
import { AppError } from '../../errors.js';
import { writeWithBackpressure } from '../../sys/backpressure.js';
import type { Handlers } from '../http.js';
import type { Streams } from '../streams.js';

type DreamHandlers = Pick<Handlers, 'dream' | 'dreamProgress' | 'listDreams' | 'getDream' | 'followDream'>;

export function dreamHandlers(dreams: DreamService, streams: Streams, store: MemoryStore): DreamHandlers {
  return {
    // The dream runs to its end even when the client goes away; `dream show ID` follows it.
    dream: async ({ body }) => ({ json: { report: await streams.hold(dreams.run({ dryRun: body.dryRun, trigger: 'manual' }).job) } }),
    // Progress lines while it runs (NDJSON), then the report as the last line.
    dreamProgress: async ({ body, res }) => {
      const { id } = dreams.run({ dryRun: body.dryRun, trigger: 'manual' });
      await followDream(dreams, id, res, streams);
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
        running: dreams.running,
      },
    }),
    getDream: async ({ params, query }) => {
      const report = dreams.report(params.id);
      return { json: { report, ...(query.expand === '1' && { memories: reportMemories(report, store) }) } };
    },
    followDream: async ({ params, res }) => {
      await followDream(dreams, params.id, res, streams);
      return 'streamed';
    },
  };
}

/**
 * Writes a dream's phases (those done, then those to come) and its report as NDJSON. A client that
 * goes away, or a daemon shutting down, ends only this stream: the dream does not depend on anyone
 * reading.
 */
async function followDream(dreams: DreamService, id: string, res: ServerResponse, streams: Streams): Promise<void> {
  let queue: Promise<void> = Promise.resolve();
  // Writes are queued (so they go out after the headers, in order) and dropped once the client is gone.
  const send = (line: DreamProgressLine) => {
    queue = queue.then(() => (res.destroyed ? undefined : writeWithBackpressure(res, `${JSON.stringify(line)}\n`))).catch(() => undefined);
  };
  // An unknown dream throws here, before any header: a 404 like any other.
  const { job, stop } = dreams.follow(id, (phase, detail) => send({ phase, detail }));
  res.writeHead(200, { 'content-type': 'application/x-ndjson' });
  await streams.run(res, async (signal) => {
    const aborted = new Promise<null>((resolve) => signal.addEventListener('abort', () => resolve(null), { once: true }));
    try {
      const report = await Promise.race([job, aborted]);
      if (report) send({ report });
    } catch (err) {
      send({ error: (err instanceof AppError ? err : new AppError('internal', (err as Error).message)).toJSON() });
    } finally {
      stop();
    }
    await queue;
  });
}
