import { VERSION } from '../../version.js';
import type { StatusResponse } from '../../api/status.js';
import { TASK_STATUSES } from '../../api/task-status.js';
import type { DreamService } from '../../dream/service.js';
import type { MemoryService } from '../../memory/index.js';
import type { MonitorService } from '../../monitor/service.js';
import type { TaskManager } from '../../tasks/manager.js';
import type { Handlers } from '../http.js';

export function statusHandlers(
  tasks: TaskManager,
  memory: MemoryService,
  dreams: DreamService,
  info: { socket: string; tcp: () => string | null; stateDir: string; startedAt: number; extractor: string },
  monitors?: MonitorService,
): Pick<Handlers, 'status'> {
  return {
    status: async () => {
      const c = tasks.counts();
      const json: StatusResponse = {
        version: VERSION,
        pid: process.pid,
        uptimeSeconds: Math.round((Date.now() - info.startedAt) / 1000),
        socket: info.socket,
        tcp: info.tcp(),
        stateDir: info.stateDir,
        tasks: { ...c, total: TASK_STATUSES.reduce((n, s) => n + c[s], 0) },
        memory: {
          memories: memory.store.size,
          episodes: memory.episodes.size,
          sessions: memory.sessions.list().length,
          ingesting: memory.queue.busy,
          extractor: info.extractor,
          loading: memory.store.loading,
        },
        dream: { ...(dreams.schedule() ?? {}), running: dreams.isRunning },
        ...(monitors ? { monitors: monitors.counts() } : {}),
      };
      return { json };
    },
  };
}
