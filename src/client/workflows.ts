/** Workflow calls of the typed client (kept beside api-client.ts, which holds the task calls). */
import type { z } from 'zod';
import type { RunWorkflowRequest, WorkflowView } from '../api/workflows.js';
import type { ApiClient } from './api-client.js';

export async function runWorkflow(c: ApiClient, req: z.input<typeof RunWorkflowRequest>): Promise<WorkflowView> {
  return (await c.call('runWorkflow', { body: req })).workflow;
}

export async function listWorkflows(c: ApiClient): Promise<WorkflowView[]> {
  return (await c.call('listWorkflows', {})).workflows;
}

export async function getWorkflow(c: ApiClient, id: string): Promise<WorkflowView> {
  return (await c.call('getWorkflow', { params: { id } })).workflow;
}

export async function killWorkflow(c: ApiClient, id: string): Promise<WorkflowView> {
  return (await c.call('killWorkflow', { params: { id } })).workflow;
}
