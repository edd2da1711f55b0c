import { DreamListResponse, DreamProgressLine, DreamRequest, DreamResponse, DreamShowQuery } from '../dream.js';
import { dreamId, json, type Endpoint } from '../endpoint.js';

export const DREAMS_ENDPOINTS = {
  dream: {
    method: 'POST',
    path: '/v1/dreams',
    doc: 'dream now (`dryRun`: change nothing); the report',
    body: DreamRequest.describe('dream request'),
    reply: json(DreamResponse, 201),
  },
  dreamProgress: {
    method: 'POST',
    path: '/v1/dreams/progress',
    doc: 'dream now, with a line per phase as it ends, then the report',
    body: DreamRequest.describe('dream request'),
    reply: { kind: 'ndjson', schema: DreamProgressLine },
  },
  listDreams: { method: 'GET', path: '/v1/dreams', doc: 'past dreams, newest first', reply: json(DreamListResponse) },
  getDream: {
    method: 'GET',
    path: '/v1/dreams/:id',
    doc: "one dream's report: every merge, supersession and archive (409 while it runs); `expand=1`: with the text now of every memory it names",
    params: dreamId,
    query: DreamShowQuery.describe('query'),
    reply: json(DreamResponse),
  },
  followDream: {
    method: 'GET',
    path: '/v1/dreams/:id/follow',
    doc: 'a dream as it runs: a line per phase (those already done first), then the report; at once for one that has ended',
    params: dreamId,
    reply: { kind: 'ndjson', schema: DreamProgressLine },
  },
} as const satisfies Record<string, Endpoint>;
