import { AddMonitorsRequest, AddMonitorsResponse, MonitorListResponse, MonitorResponse } from '../monitors.js';
import { json, monitorRef, type Endpoint } from '../endpoint.js';

export const MONITORS_ENDPOINTS = {
  listMonitors: {
    method: 'GET',
    path: '/v1/monitors',
    doc: 'MCP server monitors: state, last check, latency history and its median',
    reply: json(MonitorListResponse),
  },
  addMonitors: {
    method: 'POST',
    path: '/v1/monitors',
    doc: 'monitor one MCP server configured for Claude Code or Codex (`name`), or all of them (`all`), found from `project`',
    body: AddMonitorsRequest.describe('add monitors request'),
    reply: json(AddMonitorsResponse, 201),
  },
  getMonitor: { method: 'GET', path: '/v1/monitors/:id', doc: 'one monitor (id or name)', params: monitorRef, reply: json(MonitorResponse) },
  removeMonitor: { method: 'DELETE', path: '/v1/monitors/:id', doc: 'stop monitoring a server', params: monitorRef, reply: json(MonitorResponse) },
  checkMonitor: {
    method: 'POST',
    path: '/v1/monitors/:id/check',
    doc: 'check the server now; the monitor after the check',
    params: monitorRef,
    reply: json(MonitorResponse),
  },
} as const satisfies Record<string, Endpoint>;
