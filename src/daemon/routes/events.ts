import { withFlatStatus } from '../../api/task-json.js';
import { writeWithBackpressure } from '../../sys/backpressure.js';
import type { TaskEvents } from '../../tasks/events.js';
import type { Handlers } from '../http.js';
import type { Streams } from '../streams.js';

/** Task events as they happen, one JSON object per line (NDJSON). */
export function eventHandlers(events: TaskEvents, streams: Streams): Pick<Handlers, 'events'> {
  return {
    events: async ({ res }) => {
      res.writeHead(200, { 'content-type': 'application/x-ndjson' });
      res.flushHeaders();
      await streams.run(res, (signal) => {
        let queue = Promise.resolve();
        const off = events.on((e) => {
          queue = queue.then(() => writeWithBackpressure(res, `${JSON.stringify(e, withFlatStatus)}\n`)).catch(() => undefined);
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
  };
}
