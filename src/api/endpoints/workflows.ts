import { json, type EndpointSpec } from '../endpoint.js';
import { RunWorkflowRequest, WorkflowId, WorkflowListResponse, WorkflowResponse } from '../workflows.js';

const workflowId = { id: WorkflowId.describe('workflow id') };

export const WORKFLOWS_ENDPOINTS = {
  runWorkflow: {
    doc: 'run a workflow: its tasks (a DAG by `needs`) submitted together in topological order as tasks linked by `after`, labelled workflow=<id>',
    body: RunWorkflowRequest.describe('workflow request'),
    reply: json(WorkflowResponse, 201),
  },
  listWorkflows: { doc: 'every workflow with its state and its tasks’ states', reply: json(WorkflowListResponse) },
  getWorkflow: {
    doc: 'one workflow: its record, each task’s latest attempt and state, and the workflow’s state',
    params: workflowId,
    reply: json(WorkflowResponse),
  },
  killWorkflow: {
    doc: 'kill a workflow’s running tasks and those that could start next; the rest are skipped',
    params: workflowId,
    reply: json(WorkflowResponse),
  },
} as const satisfies Record<string, EndpointSpec>;
