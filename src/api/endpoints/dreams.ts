import { DreamListResponse, DreamProgressLine, DreamRequest, DreamResponse, DreamShowQuery } from '../dream.js';
import { dreamId, json, type EndpointSpec } from '../endpoint.js';

export const DREAMS_ENDPOINTS = {
  dream: {
    doc: 'dream now (`dryRun`: change nothing); the report',
    body: DreamRequest.describe('dream request'),
    reply: json(DreamResponse, 201),
  },
  dreamProgress: {
    doc: 'dream now, with a line per phase as it ends, then the report',
    body: DreamRequest.describe('dream request'),
    reply: { kind: 'ndjson', schema: DreamProgressLine },
  },
  listDreams: { doc: 'past dreams, newest first', reply: json(DreamListResponse) },
  getDream: {
    doc: "one dream's report: every merge, supersession and archive (409 while it runs); `expand=1`: with the text now of every memory it names",
    params: dreamId,
    query: DreamShowQuery.describe('query'),
    reply: json(DreamResponse),
  },
  followDream: {
    doc: 'a dream as it runs: a line per phase (those already done first), then the report; at once for one that has ended',
    params: dreamId,
    reply: { kind: 'ndjson', schema: DreamProgressLine },
  },
} as const satisfies Record<string, EndpointSpec>;
