/** The task tools (client/task-tools) as MCP tools, under the names the README documents. */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { scheduleTools } from '../../client/task-tools/schedule-tools.js';
import { taskTools, type TaskToolHost } from '../../client/task-tools/tools.js';
import { workflowTools } from '../../client/task-tools/workflow-tools.js';
import { guarded, ok, type WithClient } from '../result.js';

export const MCP_TASK_TOOLS = {
  run: 'run_task',
  output: 'task_output',
  input: 'send_input',
  kill: 'kill_task',
  list: 'list_tasks',
  pause: 'pause_task',
  resume: 'resume_task',
  restart: 'restart_task',
} as const;
export const MCP_SCHEDULE_TOOLS = { add: 'schedule_add', list: 'schedule_list', remove: 'schedule_remove' } as const;
export const MCP_WORKFLOW_TOOLS = { run: 'workflow_run', show: 'workflow_show' } as const;

export interface TaskToolOptions {
  /** Where relative and missing `cwd`s resolve: the MCP server's working directory. */
  cwd: string;
  /** The environment a task gets: the MCP server's own. */
  env: () => Record<string, string>;
}

export function registerTaskTools(server: McpServer, api: WithClient, opts: TaskToolOptions): void {
  const host: TaskToolHost = { call: api, cwd: opts.cwd, env: opts.env };
  for (const t of [
    ...taskTools({ names: MCP_TASK_TOOLS }),
    ...scheduleTools(MCP_SCHEDULE_TOOLS),
    ...workflowTools(MCP_WORKFLOW_TOOLS, MCP_TASK_TOOLS.output),
  ]) {
    server.registerTool(
      t.name,
      { title: t.title, description: t.description, inputSchema: t.input, outputSchema: t.output },
      guarded(async (args: Record<string, unknown>) => {
        const r = await t.run(args, host);
        return ok(r.structured, r.text);
      }),
    );
  }
}
