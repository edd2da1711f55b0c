import { DEFAULT_READ_BYTES, isFinished, statusOf } from '../../api/tasks.js';
import { withAgentInfo } from '../../agent/info.js';
import { writeWithBackpressure } from '../../sys/backpressure.js';
import { daemonEnv } from '../../sys/npm-env.js';
import type { TaskEvents } from '../../tasks/events.js';
import { follow } from '../../tasks/follow.js';
import type { TaskManager } from '../../tasks/manager.js';
import { readRange, readTextRange, tailOffset } from '../../tasks/output.js';
import type { Handlers } from '../http.js';
import type { Streams } from '../streams.js';
import { OutputEvents, resumeOffset } from '../../ui/sse.js';

/** Long polls end after this long at most; the client asks again, so no request waits forever. */
const MAX_WAIT_MS = 300_000;

type TaskHandlers = Pick<
  Handlers,
  | 'listTasks'
  | 'runTask'
  | 'getTask'
  | 'removeTask'
  | 'taskOutput'
  | 'followTask'
  | 'followTaskEvents'
  | 'sendInput'
  | 'killTask'
  | 'waitTask'
  | 'pauseTask'
  | 'resumeTask'
  | 'restartTask'
>;

export function taskHandlers(tasks: TaskManager, events: TaskEvents, streams: Streams): TaskHandlers {
  /** A task's output from `offset` as it is written, until it has ended and all of it was given to `write`. */
  const followFrom = (id: string, outputPath: string, offset: number, write: (data: Buffer) => Promise<void>, signal: AbortSignal) =>
    follow({
      dir: tasks.dir(id),
      outputPath,
      offset,
      isDone: async () => {
        try {
          return isFinished(await tasks.get(id));
        } catch {
          return true; // removed
        }
      },
      onEnd: (cb) =>
        events.on((e) => {
          if (e.task.id === id && (e.type === 'exited' || e.type === 'removed')) cb();
        }),
      write,
      signal,
    });

  return {
    listTasks: async ({ query }) => ({
      json: await tasks.page({
        all: query.all === '1',
        ...(query.group ? { group: query.group } : {}),
        ...(query.status ? { status: query.status } : {}),
        ...(query.labels ? { labels: query.labels } : {}),
        attention: query.attention === '1',
        desc: query.order === 'desc',
        ...(query.offset !== undefined ? { offset: query.offset } : {}),
        ...(query.limit !== undefined ? { limit: query.limit } : {}),
      }),
    }),
    runTask: async ({ body }) => ({ json: { task: await tasks.run(body) } }),
    getTask: async ({ params: { id } }) => ({ json: { task: await withAgentInfo(await tasks.get(id), tasks.dir(id)) } }),
    removeTask: async ({ params: { id } }) => {
      await tasks.remove(id);
      return { json: { ok: true } };
    },
    taskOutput: async ({ params: { id }, query: q }) => {
      const before = await tasks.get(id);
      const offset = q.lines !== undefined ? await tailOffset(before.outputPath, q.lines) : (q.offset ?? 0);
      const limit = q.limit ?? DEFAULT_READ_BYTES;
      const chunk =
        q.text === '1' ? await readTextRange(before.outputPath, offset, limit, isFinished(before)) : await readRange(before.outputPath, offset, limit);
      const after = await tasks.get(id);
      const meta = {
        offset: chunk.offset,
        nextOffset: chunk.nextOffset,
        size: Math.max(chunk.size, after.outputBytes),
        status: statusOf(after),
        // Done: the task has ended (as of before the read) and this read reached the end.
        done: isFinished(before) && chunk.nextOffset >= chunk.size,
      };
      return { data: chunk.data, meta };
    },
    followTask: async ({ params: { id }, query: q, res }) => {
      const task = await tasks.get(id);
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'x-nightshift-offset': String(q.offset ?? 0) });
      res.flushHeaders();
      await streams.run(res, (signal) => followFrom(id, task.outputPath, q.offset ?? 0, (data) => writeWithBackpressure(res, data), signal));
      return 'streamed';
    },
    followTaskEvents: async ({ params: { id }, query: q, req, res }) => {
      const task = await tasks.get(id);
      const offset = resumeOffset(req.headers['last-event-id'], q.offset);
      res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store' });
      // An EventSource whose connection drops tries again after this long, from the last id it saw.
      res.write('retry: 1000\n\n');
      const out = new OutputEvents(offset, (frame) => writeWithBackpressure(res, frame));
      await streams.run(res, async (signal) => {
        await followFrom(id, task.outputPath, offset, (data) => out.data(data), signal);
        if (signal.aborted) return;
        const ended = await tasks.get(id).catch(() => task);
        await out.end({ task: ended });
      });
      return 'streamed';
    },
    sendInput: async ({ params: { id }, body }) => ({ json: { task: await tasks.input(id, body.text, body.eof) } }),
    // No environment given (the dashboard has none to give): the daemon's own, as a scheduled task gets.
    restartTask: async ({ params: { id }, body }) => ({ json: { task: await tasks.restart(id, body.env ?? daemonEnv()) } }),
    pauseTask: async ({ params: { id } }) => ({ json: { task: await tasks.pause(id) } }),
    resumeTask: async ({ params: { id } }) => ({ json: { task: await tasks.resume(id) } }),
    killTask: async ({ params: { id }, body }) => ({ json: { task: await tasks.kill(id, body.signal) } }),
    waitTask: async ({ params: { id }, query: q }) => {
      const ms = Math.min(MAX_WAIT_MS, (q.timeout ?? MAX_WAIT_MS / 1000) * 1000);
      return { json: await streams.hold(tasks.wait(id, ms)) };
    },
  };
}
