import { VERSION } from '../../version.js';
import type { StatusResponse } from '../../api/status.js';
import type { TaskManager } from '../../tasks/manager.js';
import type { Route } from '../http.js';

export function statusRoutes(tasks: TaskManager, info: { socket: string; tcp: string | null; stateDir: string; startedAt: number }): Route[] {
  return [
    {
      method: 'GET',
      path: '/v1/status',
      handler: async () => {
        const c = tasks.counts();
        const json: StatusResponse = {
          version: VERSION,
          pid: process.pid,
          uptimeSeconds: Math.round((Date.now() - info.startedAt) / 1000),
          socket: info.socket,
          tcp: info.tcp,
          stateDir: info.stateDir,
          tasks: { ...c, total: c.queued + c.running + c.exited + c.killed + c.failed_to_start + c.lost },
        };
        return { json };
      },
    },
  ];
}
