/**
 * A scripted fake of the OpenAI Responses API on loopback, for tests that run the real `codex` CLI
 * against it (a custom model provider in `$CODEX_HOME/config.toml` with `wire_api = "responses"`).
 *
 *   const fake = await startFakeResponses([{ text: '{"memories":[]}' }]);
 *   … [model_providers.fake] base_url = fake.url …
 *   fake.requests[0].body.tools … ; await fake.close();
 *
 * `POST …/responses` answers from a queue of steps, then from `defaultStep`: a reply is streamed as
 * the SSE events codex reads (response.created, output_item.added/done, output_text.delta,
 * response.completed with usage); an error is an HTTP status with an OpenAI error body; `failed`
 * streams a `response.failed` event. A strict `text.format` json_schema that strict mode would refuse
 * (an object without `additionalProperties: false`, or not requiring every property) gets the API's
 * 400. Every request (any path) is recorded; unknown paths get 404.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeResponsesReply {
  text: string;
  usage?: { input_tokens: number; output_tokens: number };
  delayMs?: number;
}
export interface FakeResponsesError {
  status: number;
  message?: string;
}
export interface FakeResponsesFailed {
  failed: string;
}
export type FakeResponsesStep = FakeResponsesReply | FakeResponsesError | FakeResponsesFailed;

export interface RecordedResponsesRequest {
  method: string;
  path: string;
  /** Lower-cased header names. */
  headers: Record<string, string>;
  /** Parsed JSON body, or undefined when it was not JSON. */
  body: Record<string, unknown> | undefined;
  raw: string;
}

export interface FakeResponses {
  /** Base URL to configure as the provider's base_url (ends in /v1). */
  url: string;
  requests: RecordedResponsesRequest[];
  close(): Promise<void>;
}

/** Where a schema breaks the Responses API's strict structured-output rules, as its 400 says it; undefined when it does not. */
export function strictSchemaProblem(s: unknown, context: string[] = []): string | undefined {
  if (typeof s !== 'object' || s === null || Array.isArray(s)) return undefined;
  const o = s as Record<string, unknown>;
  const where = `In context=(${context.map((c) => `'${c}'`).join(', ')})`;
  if (o.type === 'object' || (typeof o.properties === 'object' && o.properties !== null)) {
    if (o.additionalProperties !== false) return `${where}, 'additionalProperties' is required to be supplied and to be false.`;
    const props = Object.keys((o.properties ?? {}) as object);
    const required = Array.isArray(o.required) ? (o.required as unknown[]) : [];
    const missing = props.filter((p) => !required.includes(p));
    if (missing.length > 0)
      return `${where}, 'required' is required to be supplied and to be an array including every key in properties. Missing '${missing[0]}'.`;
    for (const p of props) {
      const problem = strictSchemaProblem((o.properties as Record<string, unknown>)[p], [...context, 'properties', p]);
      if (problem) return problem;
    }
  }
  for (const key of ['items', 'anyOf'] as const) {
    const v = o[key];
    const subs = Array.isArray(v) ? v : v === undefined ? [] : [v];
    for (const [i, sub] of subs.entries()) {
      const problem = strictSchemaProblem(sub, [...context, key, ...(Array.isArray(v) ? [String(i)] : [])]);
      if (problem) return problem;
    }
  }
  return undefined;
}

function schemaProblem(body: Record<string, unknown> | undefined): string | undefined {
  const format = (body?.text as { format?: { type?: string; strict?: boolean; name?: string; schema?: unknown } } | undefined)?.format;
  if (format?.type !== 'json_schema' || format.strict !== true) return undefined;
  const problem = strictSchemaProblem(format.schema);
  return problem && `Invalid schema for response_format '${format.name ?? ''}': ${problem}`;
}

function sse(res: ServerResponse, type: string, data: Record<string, unknown>): void {
  res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
}

function streamReply(res: ServerResponse, step: FakeResponsesReply, model: string): void {
  const id = `resp_${Math.random().toString(36).slice(2)}`;
  const usage = step.usage ?? { input_tokens: 100, output_tokens: 20 };
  const item = { id: 'msg_1', type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: step.text, annotations: [] }] };
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  sse(res, 'response.created', { response: { id, object: 'response', status: 'in_progress', model, output: [] } });
  sse(res, 'response.output_item.added', { output_index: 0, item: { ...item, status: 'in_progress', content: [] } });
  for (let i = 0; i < step.text.length; i += 16) {
    sse(res, 'response.output_text.delta', { item_id: 'msg_1', output_index: 0, content_index: 0, delta: step.text.slice(i, i + 16) });
  }
  sse(res, 'response.output_item.done', { output_index: 0, item });
  const total = usage.input_tokens + usage.output_tokens;
  sse(res, 'response.completed', {
    response: {
      id,
      object: 'response',
      status: 'completed',
      model,
      output: [item],
      usage: { ...usage, total_tokens: total, input_tokens_details: { cached_tokens: 0 }, output_tokens_details: { reasoning_tokens: 0 } },
    },
  });
  res.end();
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function parse(raw: string): Record<string, unknown> | undefined {
  try {
    const v: unknown = JSON.parse(raw);
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

export async function startFakeResponses(
  steps: FakeResponsesStep[] = [],
  defaultStep: FakeResponsesStep = { status: 500, message: 'no step left' },
): Promise<FakeResponses> {
  const queue = [...steps];
  const requests: RecordedResponsesRequest[] = [];
  const server = createServer((req, res) => {
    void (async () => {
      const raw = await readBody(req);
      const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : (v ?? '')]));
      const body = parse(raw);
      requests.push({ method: req.method ?? '', path: req.url ?? '', headers, body, raw });
      if (req.method !== 'POST' || !(req.url ?? '').split('?')[0]?.endsWith('/responses')) {
        res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'not found', type: 'invalid_request_error' } }));
        return;
      }
      const invalid = schemaProblem(body);
      if (invalid) {
        res
          .writeHead(400, { 'content-type': 'application/json' })
          .end(JSON.stringify({ error: { message: invalid, type: 'invalid_request_error', param: 'text.format.schema', code: 'invalid_json_schema' } }));
        return;
      }
      const step = queue.shift() ?? defaultStep;
      if ('status' in step) {
        res.writeHead(step.status, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: step.message ?? 'fake error', type: 'invalid_request_error', code: null } }));
        return;
      }
      const model = typeof body?.model === 'string' ? body.model : 'fake-model';
      if ('failed' in step) {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        sse(res, 'response.created', { response: { id: 'resp_f', status: 'in_progress', model, output: [] } });
        sse(res, 'response.failed', { response: { id: 'resp_f', status: 'failed', model, output: [], error: { code: 'server_error', message: step.failed } } });
        res.end();
        return;
      }
      if (step.delayMs) await new Promise((r) => setTimeout(r, step.delayMs));
      streamReply(res, step, model);
    })().catch((err: unknown) => {
      res.destroy(err instanceof Error ? err : new Error(String(err)));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
