import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { ApiClient } from '../client/api-client.js';
import { callerEnv } from '../client/env.js';
import { VERSION } from '../version.js';
import { projectKey } from '../project.js';
import type { WithClient } from './result.js';
import { registerClientTools } from './tools/client-tools.js';
import { registerMonitorTools } from './tools/monitors.js';

export type { WithClient } from './result.js';

export interface McpServerOptions {
  /** Default working directory of tasks (default: this process's). */
  cwd?: string;
  /** Environment of tasks (default: this process's). */
  env?: () => Record<string, string>;
  /** Default project of recall and remember (default: the git root of cwd, else cwd). */
  project?: string;
}

const INSTRUCTIONS = `nightshift runs shell commands as background tasks whose output is kept on disk, and keeps memories across sessions.
- Long or noisy commands (builds, test suites, servers): task_run, then task_output by offset; the task survives this session.
- task_output pages: when next_offset < size, call again with that offset. A task waiting at a prompt shows attention; answer it with task_input (start it with stdin: true) or task_kill.
- memory_recall gives the memories relevant to this project; memory_remember stores a new one; memory_forget archives one; session_search searches past sessions.
- monitor_list shows the health of the MCP servers nightshift watches.
- Tools are named noun_verb; the older names (run_task, recall, …) still work in this release.`;

/**
 * The nightshift MCP server, usable with any transport. `client` is the daemon's API client, or a function
 * that runs a call against it (the stdio entry point passes one that starts the daemon when needed).
 */
export function createMcpServer(client: ApiClient | WithClient, opts: McpServerOptions = {}): McpServer {
  const api: WithClient = typeof client === 'function' ? client : (fn) => fn(client);
  const cwd = opts.cwd ?? process.cwd();
  const server = new McpServer({ name: 'nightshift', version: VERSION }, { instructions: INSTRUCTIONS });
  registerClientTools(server, api, { cwd, env: opts.env ?? (() => callerEnv()), project: opts.project ?? projectKey(cwd) });
  registerMonitorTools(server, api);
  return server;
}
