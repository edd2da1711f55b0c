import { AgentRequest } from '../agent.js';
import { TaskResponse } from '../tasks.js';
import { json, taskId, type EndpointSpec } from '../endpoint.js';

export const AGENT_ENDPOINTS = {
  startAgent: {
    doc: 'start an agent task, or continue a stopped one in a new task (`resume`)',
    body: AgentRequest.describe('agent request'),
    reply: json(TaskResponse, 201),
  },
  compactAgent: {
    doc: 'ask a running agent task to compact its context at its next turn boundary',
    params: taskId,
    reply: json(TaskResponse),
  },
} as const satisfies Record<string, EndpointSpec>;
