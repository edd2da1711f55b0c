/**
 * The MCP tool names of the release before the `<noun>_<verb>` rule (client/tool-names.ts), kept
 * for one release so a client configured with them keeps working. An old name is listed with a
 * one-line description and an open input schema (not the whole schema a second time, which a
 * client would put in its model's context), and its input is checked against the tool's own here.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z, type ZodRawShape } from 'zod';
import { failure } from '../result.js';
import { AppError } from '../../errors.js';

export const RENAMED_TOOLS: Readonly<Record<string, string>> = {
  run_task: 'task_run',
  send_input: 'task_input',
  kill_task: 'task_kill',
  list_tasks: 'task_list',
  pause_task: 'task_pause',
  resume_task: 'task_resume',
  restart_task: 'task_restart',
  recall: 'memory_recall',
  remember: 'memory_remember',
  forget: 'memory_forget',
  search_sessions: 'session_search',
  monitors: 'monitor_list',
};

const AnyInput = z.object({}).passthrough();

export interface ToolConfig {
  title: string;
  description: string;
  inputSchema: ZodRawShape;
  outputSchema: ZodRawShape;
}

/** Registers a tool under its name, and under its old one while that is kept. */
export function registerTool(server: McpServer, name: string, config: ToolConfig, handler: (args: Record<string, unknown>) => Promise<CallToolResult>): void {
  server.registerTool(name, config, handler);
  const input = z.object(config.inputSchema);
  for (const [old, now] of Object.entries(RENAMED_TOOLS)) {
    if (now !== name) continue;
    server.registerTool(
      old,
      {
        title: `${config.title} (old name)`,
        description: `Deprecated: the old name of ${now}. Call ${now} instead; this name goes in the next release.`,
        inputSchema: AnyInput,
      },
      async (args) => {
        const p = input.safeParse(args);
        if (p.success) return handler(p.data);
        const issues = p.error.issues.slice(0, 3).map((i) => `${i.path.join('.') || 'input'}: ${i.message}`);
        return failure(new AppError('bad_request', `invalid input for ${old}: ${issues.join('; ')}`));
      },
    );
  }
}
