import type { TaskEvents } from '../../tasks/events.js';
import type { Route } from '../http.js';
import type { Streams } from '../streams.js';
import { writeWithBackpressure } from './tasks.js';

/** Task events as they happen, one JSON object per line (NDJSON). */
export function eventRoutes(events: TaskEvents, streams: Streams): Route[] {
  return [
    {
      method: 'GET',
      path: '/v1/events',
      handler: async ({ res }) => {
        res.writeHead(200, { 'content-type': 'application/x-ndjson' });
        res.flushHeaders();
        await streams.run(res, (signal) => {
          let queue = Promise.resolve();
          const off = events.on((e) => {
            queue = queue.then(() => writeWithBackpressure(res, `${JSON.stringify(e)}\n`)).catch(() => undefined);
          });
          return new Promise<void>((resolve) => {
            signal.addEventListener('abort', () => {
              off();
              resolve();
            });
          });
        });
        return 'streamed';
      },
    },
  ];
}
