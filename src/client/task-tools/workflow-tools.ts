/**
 * The workflow tools, beside the task tools and of the same shape (TaskTool), offered by both
 * adapters (the MCP server and the agent): run a workflow given as the text of a workflow file
 * (YAML or JSON) and show one. The tasks get the caller's environment, as `run` does.
 */
import { resolve } from 'node:path';
import { z } from 'zod';
import { WorkflowId, type WorkflowView } from '../../api/workflows.js';
import { parseWorkflowText } from '../workflow-file.js';
import { renderWorkflow } from '../workflow-format.js';
import { getWorkflow, runWorkflow } from '../workflows.js';
import { defineTool as define } from './define.js';
import type { TaskTool } from './tools.js';

export interface WorkflowToolNames {
  run: string;
  show: string;
}

// The workflow travels as the text of a workflow file, not as a nested JSON schema: the schema would
// be sent with every agent request, and the text gets the file's errors with line and column.
const RunWorkflowInput = {
  workflow: z
    .string()
    .min(1)
    .describe(
      'the workflow as a workflow file holds it, YAML or JSON: {"name"?: string, "tasks": {NAME: {"command": string | string[], "needs"?: [NAME…], ' +
        '"needsAny"?: boolean, "group"?, "timeout"?: "10m", "retry"?: N, "retryDelay"?: "5s", "cwd"?, "env"?: {}, "labels"?: {}, "stall"?: "45s"}}}',
    ),
  cwd: z.string().min(1).optional().describe('where the tasks’ relative cwds resolve (default: the current directory)'),
};
const ShowInput = { workflow_id: WorkflowId.describe('workflow id, e.g. w3') };

const WorkflowSummary = z.object({
  workflow_id: z.string(),
  name: z.string().nullable(),
  state: z.string(),
  tasks: z.array(
    z.object({
      name: z.string(),
      task_id: z.string().optional(),
      state: z.string(),
      needs: z.array(z.string()),
      attempts: z.number(),
      exit_code: z.number().optional(),
    }),
  ),
});

function summary(w: WorkflowView): z.infer<typeof WorkflowSummary> {
  return {
    workflow_id: w.id,
    name: w.name,
    state: w.state,
    tasks: w.nodes.map((n) => ({
      name: n.name,
      ...(n.task && { task_id: n.task.id }),
      state: n.state,
      needs: n.needs,
      attempts: n.attempts,
      ...(n.task?.state === 'finished' && 'exitCode' in n.task.outcome && { exit_code: n.task.outcome.exitCode }),
    })),
  };
}

export function workflowTools(n: WorkflowToolNames, output?: string): TaskTool[] {
  return [
    define({
      name: n.run,
      title: 'Run a workflow',
      description:
        'Run a DAG of nightshift background tasks: each task starts once every task it needs exited 0 (or, with needsAny, ended) and is skipped if one ' +
        'failed. A command line (a string) runs under sh -c when it has shell syntax. Each task gets NIGHTSHIFT_WORKFLOW and, per task it needs, ' +
        `NIGHTSHIFT_OUTPUT_<NAME> (the path of that task's output). Returns at once; follow it with ${n.show}` +
        `${output ? ` and read a task's output with ${output}` : ''}.`,
      input: RunWorkflowInput,
      output: WorkflowSummary.shape,
      brief: (i) => i.workflow.replace(/\s+/g, ' ').slice(0, 80),
      run: async (i, host) => {
        const cwd = i.cwd ? resolve(host.cwd, i.cwd) : host.cwd;
        const w = await host.call((c) => runWorkflow(c, { workflow: parseWorkflowText('workflow', i.workflow), cwd, env: host.env() }));
        return { text: `submitted workflow ${w.id}:\n${renderWorkflow(w)}\nfollow it with ${n.show} {"workflow_id": "${w.id}"}`, structured: summary(w) };
      },
    }),
    define({
      name: n.show,
      title: 'Show a workflow',
      description:
        'A workflow layer by layer: each task with its id, state (queued, running, succeeded, failed, skipped), duration and needs, and the workflow’s state.',
      input: ShowInput,
      output: WorkflowSummary.shape,
      brief: (i) => i.workflow_id,
      run: async (i, host) => {
        const w = await host.call((c) => getWorkflow(c, i.workflow_id), true);
        return { text: renderWorkflow(w), structured: summary(w) };
      },
    }),
  ];
}
