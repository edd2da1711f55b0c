/**
 * Background tasks through the daemon, as the agent's tools: the task tools of client/task-tools
 * under the agent's names. Calls retry while the daemon restarts (the run outlives it).
 */
import type { Tool } from '@anthropic-ai/sdk/resources/messages';
import { z } from 'zod';
import { zodToJsonSchema } from 'zod-to-json-schema';
import { retrying } from '../../client/retrying.js';
import { taskTools, type TaskTool } from '../../client/task-tools/tools.js';
import { workflowTools } from '../../client/task-tools/workflow-tools.js';
import { SHELL, taskLabel } from './shell.js';
import { defineTool, type AgentTool } from './types.js';

export const AGENT_TASK_TOOLS = {
  run: 'task_run',
  output: 'task_output',
  input: 'task_input',
  wait: 'task_wait',
  kill: 'task_kill',
  pause: 'task_pause',
  resume: 'task_resume',
  restart: 'task_restart',
} as const;

/** The JSON Schema the model sees, made from the same zod shape the input is checked against. */
function inputSchema(shape: TaskTool['input']): Tool['input_schema'] {
  const { $schema: _drop, ...schema } = zodToJsonSchema(z.object(shape), { strictUnions: true, pipeStrategy: 'input', $refStrategy: 'none' }) as Record<
    string,
    unknown
  >;
  return { ...schema, type: 'object' };
}

function adapt(t: TaskTool): AgentTool {
  const schema = z.object(t.input);
  return defineTool({
    name: t.name,
    description: t.description,
    inputSchema: inputSchema(t.input),
    schema,
    brief: (i) => t.brief(i),
    run: async (i, ctx) => {
      const host = {
        call: retrying(ctx.client),
        cwd: ctx.cwd,
        env: () => ctx.env,
        name: (given: string | undefined, command: string) => taskLabel(`agent ${ctx.taskId} task: `, given ?? command),
      };
      return { content: (await t.run(i, host)).text };
    },
  });
}

export const AGENT_WORKFLOW_TOOLS = { run: 'workflow_run', show: 'workflow_show' } as const;

export const TASK_TOOLS: AgentTool[] = [
  ...taskTools({ names: AGENT_TASK_TOOLS, shell: [SHELL, '-c'] }),
  ...workflowTools(AGENT_WORKFLOW_TOOLS, AGENT_TASK_TOOLS.output),
].map(adapt);
