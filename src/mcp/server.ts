import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { ApiClient } from '../client/api-client.js';
import { callerEnv } from '../client/env.js';
import { VERSION } from '../version.js';
import { projectKey } from '../project.js';
import type { WithClient } from './result.js';
import { registerMemoryTools } from './tools/memory.js';
import { registerMonitorTools } from './tools/monitors.js';
import { registerTaskTools } from './tools/tasks.js';

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
- Long or noisy commands (builds, test suites, servers): run_task, then task_output by offset; the task survives this session.
- task_output pages: when next_offset < size, call again with that offset. A task waiting at a prompt shows attention; answer it with send_input (start it with stdin: true) or kill_task.
- recall gives the memories relevant to this project; remember stores a new one; forget archives one; search_sessions searches past sessions.
- monitors shows the health of the MCP servers nightshift watches.`;

/**
 * The nightshift MCP server, usable with any transport. `client` is the daemon's API client, or a function
 * that runs a call against it (the stdio entry point passes one that starts the daemon when needed).
 */
export function createMcpServer(client: ApiClient | WithClient, opts: McpServerOptions = {}): McpServer {
  const api: WithClient = typeof client === 'function' ? client : (fn) => fn(client);
  const cwd = opts.cwd ?? process.cwd();
  const server = new McpServer({ name: 'nightshift', version: VERSION }, { instructions: INSTRUCTIONS });
  registerTaskTools(server, api, { cwd, env: opts.env ?? (() => callerEnv()) });
  registerMemoryTools(server, api, { project: opts.project ?? projectKey(cwd), cwd });
  registerMonitorTools(server, api);
  return server;
}
