/**
 * A scripted fake of the Anthropic Messages API on loopback, for tests that go through the real
 * `@anthropic-ai/sdk` client (retries, streaming, error classes and all).
 *
 *   const fake = await startFakeAnthropic([reply([toolUse('record_memories', { memories: [] })])]);
 *   const client = new Anthropic({ apiKey: 'test-key', baseURL: fake.url, maxRetries: 2 });
 *   … fake.requests[0].body.stream === true …
 *   await fake.close();
 *
 * `POST /v1/messages` answers from a queue of steps (replies, API errors, functions of the request),
 * then from a default step; `stream: true` requests get the SSE event sequence the SDK accumulates.
 * `POST /v1/messages/count_tokens` answers `{input_tokens}`. Anything else (the Claude CLI may try
 * other endpoints) is recorded in `others` and gets a 404 error body.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { MessageCreateParamsBase } from '@anthropic-ai/sdk/resources/messages';

export type FakeBlock =
  { type: 'text'; text: string } | { type: 'tool_use'; id?: string; name: string; input: unknown } | { type: 'thinking'; thinking: string; signature?: string };

export interface FakeUsage {
  input_tokens: number;
  output_tokens: number;
  cache_read_input_tokens: number;
  cache_creation_input_tokens: number;
}

export interface FakeReply {
  /** A string is one text block. */
  content: FakeBlock[] | string;
  /** Default: `tool_use` when a tool_use block is present, else `end_turn`. */
  stop_reason?: 'end_turn' | 'max_tokens' | 'stop_sequence' | 'tool_use' | 'pause_turn' | 'refusal';
  /** Merged over the estimate (input = ceil(JSON length of system+messages+tools / 4)). */
  usage?: Partial<FakeUsage>;
  model?: string;
  /** Wait this long before answering (timeouts). */
  delayMs?: number;
  /** Streaming only: after the content blocks, send an SSE `error` event instead of finishing. */
  streamError?: { type: string; message: string };
}

export interface FakeError {
  status: number;
  /** Default from the status: 400 invalid_request_error, 429 rate_limit_error, 529 overloaded_error… */
  type?: string;
  message?: string;
  headers?: Record<string, string>;
}

/** Destroy the connection without answering (connection errors; the SDK retries them). */
export interface FakeDrop {
  drop: true;
}

export type FakeStep = FakeReply | FakeError | FakeDrop | ((request: RecordedRequest) => FakeStep | Promise<FakeStep>);

export interface RecordedRequest {
  method: string;
  path: string;
  /** Lower-cased header names. */
  headers: Record<string, string>;
  /** Parsed JSON body (as the SDK sent it). */
  body: MessageCreateParamsBase;
  raw: string;
  stream: boolean;
}

export interface FakeOptions {
  steps?: FakeStep[];
  /** Answers when the queue is empty. Default: a text reply saying so. */
  defaultStep?: FakeStep;
  /** count_tokens answer; default: the same estimate as usage.input_tokens. */
  countTokens?: (request: RecordedRequest) => number | FakeError;
  /** `retry-after-ms` sent with retryable errors (429, 408, 409, 5xx) so SDK retries are quick; null: none. Default 10. */
  retryAfterMs?: number | null;
  /** When set, requests whose x-api-key / bearer token differ get 401 authentication_error. */
  apiKey?: string;
  /** Characters per text_delta / input_json_delta event. Default 16. */
  chunkChars?: number;
}

export interface FakeAnthropic {
  /** Base URL for the SDK (`baseURL`). */
  url: string;
  /** Every POST /v1/messages, in arrival order (retries included). */
  requests: RecordedRequest[];
  countTokensCalls: RecordedRequest[];
  /** Requests to any other path (method + path + body), in arrival order. */
  others: RecordedRequest[];
  /** Append steps to the queue. */
  push(...steps: FakeStep[]): void;
  setDefault(step: FakeStep): void;
  /** Steps still queued. */
  readonly pending: number;
  close(): Promise<void>;
}

const ERROR_TYPES: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  408: 'timeout_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  500: 'api_error',
  529: 'overloaded_error',
};

// ---- step helpers ---------------------------------------------------------------------------

export const text = (t: string): FakeBlock => ({ type: 'text', text: t });
export const toolUse = (name: string, input: unknown, id?: string): FakeBlock => ({ type: 'tool_use', name, input, ...(id ? { id } : {}) });
export const reply = (content: FakeBlock[] | string, extra: Omit<FakeReply, 'content'> = {}): FakeReply => ({ content, ...extra });
export const apiError = (status: number, message?: string, type?: string): FakeError => ({
  status,
  ...(message !== undefined ? { message } : {}),
  ...(type !== undefined ? { type } : {}),
});
export const overloaded = (): FakeError => apiError(529, 'Overloaded');
export const rateLimited = (): FakeError => apiError(429, 'Number of request tokens has exceeded your per-minute rate limit');
export const promptTooLong = (tokens: number, max: number): FakeError => apiError(400, `prompt is too long: ${tokens} tokens > ${max} maximum`);

/** The fake's token estimate of a request: ceil(JSON length of system + messages + tools / 4). */
export function fakeEstimate(body: Partial<MessageCreateParamsBase>): number {
  const chars = JSON.stringify(body.system ?? '').length + JSON.stringify(body.messages ?? []).length + JSON.stringify(body.tools ?? []).length;
  return Math.ceil(chars / 4);
}

// ---- server ---------------------------------------------------------------------------------

export async function startFakeAnthropic(script: FakeStep[] | FakeOptions = {}): Promise<FakeAnthropic> {
  const opts: FakeOptions = Array.isArray(script) ? { steps: script } : script;
  const queue: FakeStep[] = [...(opts.steps ?? [])];
  let defaultStep: FakeStep = opts.defaultStep ?? reply('(fake anthropic: no scripted response left)');
  const requests: RecordedRequest[] = [];
  const countTokensCalls: RecordedRequest[] = [];
  const others: RecordedRequest[] = [];
  const timers = new Set<NodeJS.Timeout>();
  let seq = 0;

  const sleep = (ms: number): Promise<void> =>
    new Promise((resolve) => {
      const t = setTimeout(() => {
        timers.delete(t);
        resolve();
      }, ms);
      timers.add(t);
    });

  const sendError = (res: ServerResponse, e: FakeError): void => {
    const type = e.type ?? ERROR_TYPES[e.status] ?? 'api_error';
    const retryable = e.status === 408 || e.status === 409 || e.status === 429 || e.status >= 500;
    const headers: Record<string, string> = { 'content-type': 'application/json', 'request-id': `req_fake_${++seq}` };
    if (retryable && opts.retryAfterMs !== null) headers['retry-after-ms'] = String(opts.retryAfterMs ?? 10);
    Object.assign(headers, e.headers);
    res.writeHead(e.status, headers);
    res.end(JSON.stringify({ type: 'error', error: { type, message: e.message ?? `fake ${type}` }, request_id: headers['request-id'] }));
  };

  const authorized = (req: RecordedRequest): boolean => {
    if (opts.apiKey === undefined) return true;
    return req.headers['x-api-key'] === opts.apiKey || req.headers['authorization'] === `Bearer ${opts.apiKey}`;
  };

  const resolveStep = async (step: FakeStep, req: RecordedRequest): Promise<Exclude<FakeStep, (r: RecordedRequest) => unknown>> => {
    let s = step;
    while (typeof s === 'function') s = await s(req);
    return s;
  };

  const handleMessages = async (req: RecordedRequest, res: ServerResponse): Promise<void> => {
    requests.push(req);
    if (!authorized(req)) return sendError(res, { status: 401, message: 'invalid x-api-key' });
    const step = await resolveStep(queue.shift() ?? defaultStep, req);
    if ('drop' in step) {
      res.socket?.destroy();
      return;
    }
    if ('status' in step) return sendError(res, step);
    if (step.delayMs) await sleep(step.delayMs);
    if (res.destroyed) return;
    const message = buildMessage(step, req.body, ++seq);
    if (!req.stream) {
      if (step.streamError) return sendError(res, { status: 500, ...step.streamError });
      res.writeHead(200, { 'content-type': 'application/json', 'request-id': `req_fake_${seq}` });
      res.end(JSON.stringify(message));
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', 'request-id': `req_fake_${seq}` });
    for (const [event, data] of streamEvents(message, opts.chunkChars ?? 16, step.streamError)) {
      res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
    }
    res.end();
  };

  const handleCountTokens = (req: RecordedRequest, res: ServerResponse): void => {
    countTokensCalls.push(req);
    if (!authorized(req)) return sendError(res, { status: 401, message: 'invalid x-api-key' });
    const answer = opts.countTokens ? opts.countTokens(req) : fakeEstimate(req.body);
    if (typeof answer !== 'number') return sendError(res, answer);
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ input_tokens: answer }));
  };

  const server = createServer((httpReq: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    httpReq.on('data', (c: Buffer) => chunks.push(c));
    httpReq.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const path = (httpReq.url ?? '/').split('?')[0] ?? '/';
      let body: MessageCreateParamsBase;
      try {
        body = (raw ? JSON.parse(raw) : {}) as MessageCreateParamsBase;
      } catch {
        return sendError(res, { status: 400, message: 'request body is not valid JSON' });
      }
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(httpReq.headers)) if (v !== undefined) headers[k] = Array.isArray(v) ? v.join(', ') : v;
      const recorded: RecordedRequest = { method: httpReq.method ?? 'GET', path, headers, body, raw, stream: body.stream === true };
      if (httpReq.method === 'POST' && path === '/v1/messages') {
        handleMessages(recorded, res).catch((err: unknown) => {
          if (!res.headersSent) sendError(res, { status: 500, message: `fake script threw: ${String(err)}` });
          else res.destroy();
        });
      } else if (httpReq.method === 'POST' && path === '/v1/messages/count_tokens') {
        handleCountTokens(recorded, res);
      } else {
        others.push(recorded);
        sendError(res, { status: 404, message: `fake anthropic: no route ${httpReq.method} ${path}` });
      }
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    countTokensCalls,
    others,
    push: (...steps) => void queue.push(...steps),
    setDefault: (step) => {
      defaultStep = step;
    },
    get pending() {
      return queue.length;
    },
    close: async () => {
      for (const t of timers) clearTimeout(t);
      timers.clear();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

// ---- message shapes -------------------------------------------------------------------------

interface WireMessage {
  id: string;
  type: 'message';
  role: 'assistant';
  model: string;
  content: Array<Record<string, unknown>>;
  stop_reason: string;
  stop_sequence: null;
  usage: FakeUsage;
}

function buildMessage(step: FakeReply, body: Partial<MessageCreateParamsBase>, n: number): WireMessage {
  const blocks: FakeBlock[] = typeof step.content === 'string' ? [text(step.content)] : step.content;
  const content = blocks.map((b, i): Record<string, unknown> => {
    if (b.type === 'tool_use') return { type: 'tool_use', id: b.id ?? `toolu_fake_${n}_${i}`, name: b.name, input: b.input };
    if (b.type === 'thinking') return { type: 'thinking', thinking: b.thinking, signature: b.signature ?? `sig_fake_${n}_${i}` };
    return { type: 'text', text: b.text, citations: null };
  });
  const usage: FakeUsage = {
    input_tokens: fakeEstimate(body),
    output_tokens: Math.max(1, Math.ceil(JSON.stringify(content).length / 4)),
    cache_read_input_tokens: 0,
    cache_creation_input_tokens: 0,
    ...step.usage,
  };
  return {
    id: `msg_fake_${n}`,
    type: 'message',
    role: 'assistant',
    model: step.model ?? body.model ?? 'claude-fake',
    content,
    stop_reason: step.stop_reason ?? (blocks.some((b) => b.type === 'tool_use') ? 'tool_use' : 'end_turn'),
    stop_sequence: null,
    usage,
  };
}

function chunk(s: string, size: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < s.length; i += size) out.push(s.slice(i, i + size));
  return out;
}

/** The event sequence of a streamed message, as the API sends it. */
function streamEvents(m: WireMessage, size: number, streamError?: { type: string; message: string }): Array<[string, unknown]> {
  const events: Array<[string, unknown]> = [];
  const start = { ...m, content: [], stop_reason: null, usage: { ...m.usage, output_tokens: 1 } };
  events.push(['message_start', { type: 'message_start', message: start }]);
  events.push(['ping', { type: 'ping' }]);
  m.content.forEach((block, index) => {
    if (block['type'] === 'tool_use') {
      events.push(['content_block_start', { type: 'content_block_start', index, content_block: { ...block, input: {} } }]);
      for (const part of chunk(JSON.stringify(block['input'] ?? {}), size)) {
        events.push(['content_block_delta', { type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: part } }]);
      }
    } else if (block['type'] === 'thinking') {
      events.push(['content_block_start', { type: 'content_block_start', index, content_block: { type: 'thinking', thinking: '', signature: '' } }]);
      for (const part of chunk(String(block['thinking']), size)) {
        events.push(['content_block_delta', { type: 'content_block_delta', index, delta: { type: 'thinking_delta', thinking: part } }]);
      }
      events.push(['content_block_delta', { type: 'content_block_delta', index, delta: { type: 'signature_delta', signature: block['signature'] } }]);
    } else {
      events.push(['content_block_start', { type: 'content_block_start', index, content_block: { type: 'text', text: '', citations: null } }]);
      for (const part of chunk(String(block['text']), size)) {
        events.push(['content_block_delta', { type: 'content_block_delta', index, delta: { type: 'text_delta', text: part } }]);
      }
    }
    events.push(['content_block_stop', { type: 'content_block_stop', index }]);
  });
  if (streamError) {
    events.push(['error', { type: 'error', error: streamError }]);
    return events;
  }
  const { input_tokens, cache_read_input_tokens, cache_creation_input_tokens, output_tokens } = m.usage;
  events.push([
    'message_delta',
    {
      type: 'message_delta',
      delta: { stop_reason: m.stop_reason, stop_sequence: null },
      usage: { input_tokens, cache_read_input_tokens, cache_creation_input_tokens, output_tokens },
    },
  ]);
  events.push(['message_stop', { type: 'message_stop' }]);
  return events;
}
