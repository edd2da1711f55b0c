import { json, type Endpoint } from '../endpoint.js';
import { RunWorkflowRequest, WorkflowId, WorkflowListResponse, WorkflowResponse } from '../workflows.js';

const workflowId = { id: WorkflowId.describe('workflow id') };

export const WORKFLOWS_ENDPOINTS = {
  runWorkflow: {
    method: 'POST',
    path: '/v1/workflows',
    doc: 'run a workflow: its tasks (a DAG by `needs`) submitted together in topological order as tasks linked by `after`, labelled workflow=<id>',
    body: RunWorkflowRequest.describe('workflow request'),
    reply: json(WorkflowResponse, 201),
  },
  listWorkflows: { method: 'GET', path: '/v1/workflows', doc: 'every workflow with its state and its tasks’ states', reply: json(WorkflowListResponse) },
  getWorkflow: {
    method: 'GET',
    path: '/v1/workflows/:id',
    doc: 'one workflow: its record, each task’s latest attempt and state, and the workflow’s state',
    params: workflowId,
    reply: json(WorkflowResponse),
  },
  killWorkflow: {
    method: 'POST',
    path: '/v1/workflows/:id/kill',
    doc: 'kill a workflow’s running tasks and those that could start next; the rest are skipped',
    params: workflowId,
    reply: json(WorkflowResponse),
  },
} as const satisfies Record<string, Endpoint>;
