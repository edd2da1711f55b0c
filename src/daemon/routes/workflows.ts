import type { Workflows } from '../../workflows/workflows.js';
import type { Handlers } from '../http.js';

type WorkflowHandlers = Pick<Handlers, 'runWorkflow' | 'listWorkflows' | 'getWorkflow' | 'killWorkflow'>;

export function workflowHandlers(workflows: Workflows): WorkflowHandlers {
  return {
    runWorkflow: async ({ body }) => ({ json: { workflow: await workflows.run(body) } }),
    listWorkflows: async () => ({ json: { workflows: await workflows.list() } }),
    getWorkflow: async ({ params: { id } }) => ({ json: { workflow: await workflows.get(id) } }),
    killWorkflow: async ({ params: { id } }) => ({ json: { workflow: await workflows.kill(id) } }),
  };
}
