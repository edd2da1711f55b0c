/**
 * The client tools (client/task-tools, client/memory-tools) as the agent's tools, under the names
 * of client/tool-names.ts. Calls retry while the daemon restarts (the run outlives it).
 */
import type { Tool } from '@anthropic-ai/sdk/resources/messages';
import { z } from 'zod';
import { zodToJsonSchema } from 'zod-to-json-schema';
import { retrying } from '../../client/retrying.js';
import { taskTools, type TaskTool } from '../../client/task-tools/tools.js';
import { workflowTools } from '../../client/task-tools/workflow-tools.js';
import { TASK_TOOL_NAMES, WORKFLOW_TOOL_NAMES } from '../../client/tool-names.js';
import { SHELL, taskLabel } from './shell.js';
import { defineTool, type AgentTool } from './types.js';

/** Every task tool but `list`: the agent knows the tasks it started. */
const { list: _list, ...AGENT_TASK_TOOLS } = TASK_TOOL_NAMES;

/** The JSON Schema the model sees, made from the same zod shape the input is checked against. */
function inputSchema(shape: TaskTool['input']): Tool['input_schema'] {
  const { $schema: _drop, ...schema } = zodToJsonSchema(z.object(shape), { strictUnions: true, pipeStrategy: 'input', $refStrategy: 'none' }) as Record<
    string,
    unknown
  >;
  return { ...schema, type: 'object' };
}

/** One client tool as an agent tool: its JSON schema made from its zod input, its answer as text. */
export function adaptClientTool(t: TaskTool): AgentTool {
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
        project: ctx.cwd,
      };
      return { content: (await t.run(i, host)).text };
    },
  });
}

export const TASK_TOOLS: AgentTool[] = [
  ...taskTools({ names: AGENT_TASK_TOOLS, shell: [SHELL, '-c'] }),
  ...workflowTools(WORKFLOW_TOOL_NAMES, AGENT_TASK_TOOLS.output),
].map(adaptClientTool);
