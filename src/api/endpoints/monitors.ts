import { AddMonitorsRequest, AddMonitorsResponse, MonitorListResponse, MonitorResponse } from '../monitors.js';
import { json, monitorRef, type EndpointSpec } from '../endpoint.js';

export const MONITORS_ENDPOINTS = {
  listMonitors: {
    doc: 'MCP server monitors: state, last check, latency history and its median',
    reply: json(MonitorListResponse),
  },
  addMonitors: {
    doc: 'monitor one MCP server configured for Claude Code or Codex (`name`), or all of them (`all`), found from `project`',
    body: AddMonitorsRequest.describe('add monitors request'),
    reply: json(AddMonitorsResponse, 201),
  },
  getMonitor: { doc: 'one monitor (id or name)', params: monitorRef, reply: json(MonitorResponse) },
  removeMonitor: { doc: 'stop monitoring a server', params: monitorRef, reply: json(MonitorResponse) },
  checkMonitor: {
    doc: 'check the server now; the monitor after the check',
    params: monitorRef,
    reply: json(MonitorResponse),
  },
} as const satisfies Record<string, EndpointSpec>;
