/** The client tools (tasks, schedules, workflows, memories; client/) as MCP tools, under the names of client/tool-names.ts. */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { memoryTools } from '../../client/memory-tools/tools.js';
import { scheduleTools } from '../../client/task-tools/schedule-tools.js';
import { taskTools, type TaskTool, type TaskToolHost } from '../../client/task-tools/tools.js';
import { workflowTools } from '../../client/task-tools/workflow-tools.js';
import { outcomeTools } from '../../client/task-tools/outcome-tools.js';
import { MEMORY_TOOL_NAMES, OUTCOME_TOOL_NAMES, SCHEDULE_TOOL_NAMES, TASK_TOOL_NAMES, WORKFLOW_TOOL_NAMES } from '../../client/tool-names.js';
import { guarded, ok, type WithClient } from '../result.js';
import { registerTool } from './register.js';

/** MCP offers every task tool but `wait`: a client's tool call has its own timeout, and task_output pages instead. */
const { wait: _wait, ...MCP_TASK_TOOLS } = TASK_TOOL_NAMES;

export interface ClientToolOptions {
  /** Where relative and missing `cwd`s resolve: the MCP server's working directory. */
  cwd: string;
  /** The environment a task gets: the MCP server's own. */
  env: () => Record<string, string>;
  /** The project memories are recalled for and remembered in when a call names none. */
  project: string;
}

export function registerClientTools(server: McpServer, api: WithClient, opts: ClientToolOptions): void {
  const host: TaskToolHost = { call: api, cwd: opts.cwd, env: opts.env, project: opts.project };
  const tools: TaskTool[] = [
    ...taskTools({ names: MCP_TASK_TOOLS }),
    ...outcomeTools(OUTCOME_TOOL_NAMES),
    ...scheduleTools(SCHEDULE_TOOL_NAMES),
    ...workflowTools(WORKFLOW_TOOL_NAMES, MCP_TASK_TOOLS.output),
    ...memoryTools({ names: MEMORY_TOOL_NAMES }),
  ];
  for (const t of tools) {
    registerTool(
      server,
      t.name,
      { title: t.title, description: t.description, inputSchema: t.input, outputSchema: t.output },
      guarded(async (args: Record<string, unknown>) => {
        const r = await t.run(args, host);
        return ok(r.structured, r.text);
      }),
    );
  }
}
