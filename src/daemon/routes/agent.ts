/**
 * Agent tasks: `POST /v1/agents` starts one (or continues a stopped one in a new task), `POST
 * /v1/agents/:id/compact` asks a running one to compact at its next turn boundary. The launching
 * is agent/launch.ts; this only hands it the request.
 */
import { agentLauncher, type LaunchDeps } from '../../agent/launch.js';
import type { Handlers } from '../http.js';

export type AgentRouteDeps = LaunchDeps;

export function agentHandlers(d: AgentRouteDeps): Pick<Handlers, 'startAgent' | 'compactAgent'> {
  const agents = agentLauncher(d);
  return {
    startAgent: async ({ body }) => ({ json: { task: await agents.start(body) } }),
    compactAgent: async ({ params: { id } }) => ({ json: { task: await agents.compact(id) } }),
  };
}
