import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { MONITOR_TOOL_NAMES } from '../../client/tool-names.js';
import { guarded, ok, type WithClient } from '../result.js';
import { registerTool } from './register.js';

const MonitorOut = z.object({
  id: z.string(),
  name: z.string(),
  transport: z.string(),
  state: z.string(),
  since: z.string(),
  last_check: z.string().nullable(),
  latency_ms: z.number().nullable(),
  p50_ms: z.number().nullable(),
  tools: z.number().nullable(),
  error: z.string().nullable(),
});

/** `monitor_list`: the health of the MCP servers nightshift watches, so an agent can tell a broken server from its own mistake. */
export function registerMonitorTools(server: McpServer, api: WithClient): void {
  registerTool(
    server,
    MONITOR_TOOL_NAMES.list,
    {
      title: 'MCP server health',
      description:
        'List the MCP servers nightshift monitors (configured for Claude Code or Codex) with their state (up, degraded, down, pending), ' +
        'the last check, its latency and the median latency of the recent checks, and the last error. Use it when an MCP tool fails or hangs.',
      inputSchema: {},
      outputSchema: { monitors: z.array(MonitorOut) },
    },
    guarded(async () => {
      const monitors = (await api((c) => c.monitors())).map((m) => ({
        id: m.id,
        name: m.name,
        transport: m.transport,
        state: m.state,
        since: m.since,
        last_check: m.last?.at ?? null,
        latency_ms: m.last?.latencyMs ?? null,
        p50_ms: m.p50Ms,
        tools: m.last?.tools ?? null,
        error: m.last?.error ?? null,
      }));
      const text =
        monitors.length === 0
          ? 'no MCP servers are monitored (nightshift monitor add mcp --all)'
          : monitors.map((m) => `${m.name}: ${m.state}${m.latency_ms !== null ? ` ${m.latency_ms}ms` : ''}${m.error ? ` (${m.error})` : ''}`).join('\n');
      return ok({ monitors }, text);
    }),
  );
}
