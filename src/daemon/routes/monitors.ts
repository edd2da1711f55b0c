import type { MonitorService } from '../../monitor/service.js';
import type { Handlers } from '../http.js';

export function monitorHandlers(monitors: MonitorService): Pick<Handlers, 'listMonitors' | 'addMonitors' | 'getMonitor' | 'removeMonitor' | 'checkMonitor'> {
  return {
    listMonitors: async () => ({ json: { monitors: monitors.list() } }),
    addMonitors: async ({ body }) => ({ json: await monitors.add(body) }),
    getMonitor: async ({ params }) => ({ json: { monitor: monitors.get(params.id) } }),
    removeMonitor: async ({ params }) => ({ json: { monitor: await monitors.remove(params.id) } }),
    checkMonitor: async ({ params }) => ({ json: { monitor: await monitors.checkNow(params.id) } }),
  };
}
