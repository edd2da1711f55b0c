import { DoctorResponse, UsageQuery, UsageResponse } from '../model-usage.js';
import { ReloadResponse, StatusResponse } from '../status.js';
import { json, type EndpointSpec } from '../endpoint.js';

export const SYSTEM_ENDPOINTS = {
  status: { doc: 'version, pid, uptime, socket, task counts, memory and dream state', reply: json(StatusResponse) },
  reload: {
    doc: 'read the config file again and apply it (as SIGHUP does); what changed, and what waits for a restart',
    reply: json(ReloadResponse),
  },
  usage: {
    doc: 'model calls per day (default the last 7): calls, tokens, cost, fallbacks to the heuristics, by backend and purpose; the daily token budget',
    query: UsageQuery.describe('usage query'),
    reply: json(UsageResponse),
  },
  doctor: {
    doc: 'which memory extractor and dream reviewer run and why, the budget and today’s spend, the agent CLIs found',
    reply: json(DoctorResponse),
  },
} as const satisfies Record<string, EndpointSpec>;
