import type { ServerResponse } from 'node:http';
import {
  FollowQuery,
  InputRequest,
  isFinished,
  KillRequest,
  ListQuery,
  OutputQuery,
  RunRequest,
  TaskId,
  WaitQuery,
} from '../../api/tasks.js';
import { withAgentInfo } from '../../agent/info.js';
import { AppError } from '../../errors.js';
import type { TaskEvents } from '../../tasks/events.js';
import { follow } from '../../tasks/follow.js';
import type { TaskManager } from '../../tasks/manager.js';
import { readRange, tailOffset } from '../../tasks/output.js';
import { parse, type Route } from '../http.js';
import type { Streams } from '../streams.js';

const DEFAULT_READ = 1024 * 1024;
/** Long polls end after this long at most; the client asks again, so no request waits forever. */
const MAX_WAIT_MS = 300_000;

export function taskRoutes(tasks: TaskManager, events: TaskEvents, streams: Streams): Route[] {
  const id = (params: Record<string, string>) => parse(TaskId, params.id, 'task id');

  return [
    {
      method: 'GET',
      path: '/v1/tasks',
      handler: async ({ query }) => {
        const q = parse(ListQuery, query, 'query');
        return { json: { tasks: await tasks.list(q.all === '1') } };
      },
    },
    {
      method: 'POST',
      path: '/v1/tasks',
      handler: async ({ body }) => {
        const req = parse(RunRequest, await body(), 'run request');
        return { status: 201, json: { task: await tasks.run(req) } };
      },
    },
    {
      method: 'GET',
      path: '/v1/tasks/:id',
      handler: async ({ params }) => {
        const taskId = id(params);
        return { json: { task: await withAgentInfo(await tasks.get(taskId), tasks.dir(taskId)) } };
      },
    },
    {
      method: 'DELETE',
      path: '/v1/tasks/:id',
      handler: async ({ params }) => {
        await tasks.remove(id(params));
        return { json: { ok: true } };
      },
    },
    {
      method: 'GET',
      path: '/v1/tasks/:id/output',
      handler: async ({ params, query, res }) => {
        const taskId = id(params);
        const q = parse(OutputQuery, query, 'output query');
        const before = await tasks.get(taskId);
        const offset = q.lines !== undefined ? await tailOffset(before.outputPath, q.lines) : (q.offset ?? 0);
        const chunk = await readRange(before.outputPath, offset, q.limit ?? DEFAULT_READ);
        const after = await tasks.get(taskId);
        const meta = {
          offset: chunk.offset,
          nextOffset: chunk.nextOffset,
          size: Math.max(chunk.size, after.outputBytes),
          status: after.status,
          // Done: the task has ended (as of before the read) and this read reached the end.
          done: isFinished(before) && chunk.nextOffset >= chunk.size,
        };
        res.writeHead(200, {
          'content-type': 'application/octet-stream',
          'content-length': chunk.data.length,
          'x-nightshift-output': JSON.stringify(meta),
        });
        res.end(chunk.data);
        return 'streamed';
      },
    },
    {
      method: 'GET',
      path: '/v1/tasks/:id/follow',
      handler: async ({ params, query, res }) => {
        const taskId = id(params);
        const q = parse(FollowQuery, query, 'follow query');
        const task = await tasks.get(taskId);
        res.writeHead(200, { 'content-type': 'application/octet-stream', 'x-nightshift-offset': String(q.offset ?? 0) });
        res.flushHeaders();
        await streams.run(res, (signal) =>
          follow({
            dir: tasks.dir(taskId),
            outputPath: task.outputPath,
            offset: q.offset ?? 0,
            isDone: async () => {
              try {
                return isFinished(await tasks.get(taskId));
              } catch {
                return true; // removed
              }
            },
            onEnd: (cb) =>
              events.on((e) => {
                if (e.task.id === taskId && (e.type === 'exited' || e.type === 'removed')) cb();
              }),
            write: (data) => writeWithBackpressure(res, data),
            signal,
          }),
        );
        return 'streamed';
      },
    },
    {
      method: 'POST',
      path: '/v1/tasks/:id/input',
      handler: async ({ params, body }) => {
        const taskId = id(params);
        const req = parse(InputRequest, await body(), 'input request');
        return { json: { task: await tasks.input(taskId, req.text, req.eof) } };
      },
    },
    {
      method: 'POST',
      path: '/v1/tasks/:id/kill',
      handler: async ({ params, body }) => {
        const taskId = id(params);
        const req = parse(KillRequest, await body(), 'kill request');
        return { json: { task: await tasks.kill(taskId, req.signal) } };
      },
    },
    {
      method: 'GET',
      path: '/v1/tasks/:id/wait',
      handler: async ({ params, query }) => {
        const taskId = id(params);
        const q = parse(WaitQuery, query, 'wait query');
        const ms = Math.min(MAX_WAIT_MS, (q.timeout ?? MAX_WAIT_MS / 1000) * 1000);
        return { json: await streams.hold(tasks.wait(taskId, ms)) };
      },
    },
  ];
}

export function writeWithBackpressure(res: ServerResponse, data: Buffer | string): Promise<void> {
  if (res.destroyed) throw new AppError('conflict', 'client went away');
  if (res.write(data)) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.once('drain', done);
    res.once('close', done);
  });
}
