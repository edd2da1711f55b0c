import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer, STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { AppError, diskFullError } from '../errors.js';
import type { Logger } from '../log.js';
import { ENDPOINTS, type Endpoint, type EndpointName } from '../api/endpoints.js';
import { checkPathParam } from '../api/path.js';
import { withFlatStatus } from '../api/task-json.js';
import { compile, discardBody, parse, readJsonBody, type Call, type Handlers } from './http.js';

interface Route {
  name: EndpointName;
  endpoint: Endpoint;
  match: (p: string) => Record<string, string> | null;
}

const ROUTES: Route[] = (Object.entries(ENDPOINTS) as [EndpointName, Endpoint][]).map(([name, endpoint]) => ({
  name,
  endpoint,
  match: compile(endpoint.path),
}));

export interface ServerOptions {
  handlers: Handlers;
  /** Read per request: a reload may change it. */
  maxRequestBytes: () => number;
  log: Logger;
  /** When set (TCP listener), every request must carry `Authorization: Bearer <token>`. */
  token?: string;
}

type Answered = { status?: number; json: unknown } | { data: Buffer; meta: unknown } | 'streamed';

const digest = (s: string) => createHash('sha256').update(s).digest();

/** Constant-time comparison of the bearer token (hashing first makes the lengths equal). */
function authorized(req: IncomingMessage, token: string): boolean {
  const header = req.headers.authorization ?? '';
  const given = header.startsWith('Bearer ') ? header.slice(7) : '';
  return timingSafeEqual(digest(given), digest(token));
}

export function sendError(res: ServerResponse, err: AppError): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const body = JSON.stringify({ error: err.toJSON() });
  res.writeHead(err.status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

/** What node's HTTP parser could not even parse (unknown method, headers too large, garbage). */
function parserError(err: NodeJS.ErrnoException): AppError {
  switch (err.code) {
    case 'HPE_HEADER_OVERFLOW':
      return new AppError('headers_too_large', 'request headers (or the URL) are too large');
    case 'HPE_INVALID_METHOD':
      return new AppError('method_not_allowed', 'unknown HTTP method');
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return new AppError('timeout', 'the request headers did not arrive in time');
    default:
      return new AppError('bad_request', `malformed HTTP request (${err.code ?? 'parse error'})`);
  }
}

/** The JSON error for a request node's parser refused, written straight to the socket. */
function sendParserError(err: NodeJS.ErrnoException, socket: Duplex): void {
  const headersSent = (socket as Duplex & { _httpMessage?: ServerResponse })._httpMessage?.headersSent ?? false;
  if (err.code === 'ECONNRESET' || !socket.writable || headersSent) {
    socket.destroy();
    return;
  }
  const e = parserError(err);
  const body = JSON.stringify({ error: e.toJSON() });
  socket.end(
    `HTTP/1.1 ${e.status} ${STATUS_CODES[e.status] ?? ''}\r\ncontent-type: application/json\r\n` +
      `content-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
  );
}

/** Whether `err` only says the peer closed the connection (node's "aborted", a reset, a broken pipe). */
function clientGone(req: IncomingMessage, res: ServerResponse, err: unknown): boolean {
  if (err instanceof AppError) return false;
  // Only when this request's own connection is closed: a reset from an upstream a handler called is an error.
  const closed = req.destroyed || req.socket.destroyed || res.destroyed;
  const code = (err as NodeJS.ErrnoException | null)?.code;
  return closed && (code === 'ECONNRESET' || code === 'EPIPE' || code === 'ERR_STREAM_PREMATURE_CLOSE' || !req.complete);
}

/**
 * HTTP/1.1 + JSON, dispatched from the endpoint table: a request's parts are validated against its
 * endpoint's schemas before the handler sees them. Every failure is a JSON error with a code and a message.
 */
export function createApiServer(opts: ServerOptions): Server {
  const server = createServer({ requestTimeout: 0, headersTimeout: 10_000 }, createApiHandler(opts));
  server.on('clientError', sendParserError);
  return server;
}

/** The dispatcher alone: what the unix socket and TCP servers answer with, and the dashboard mounts under its own checks. */
export function createApiHandler(opts: ServerOptions): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    void handle(req, res).catch(async (err: unknown) => {
      // The client went away (closed mid-body, or before its answer): nothing to answer and nothing
      // wrong here, only worth a line when debugging a client.
      if (clientGone(req, res, err)) {
        opts.log.debug({ url: req.url, method: req.method, reason: (err as Error).message }, 'client went away mid-request');
        return;
      }
      // A full disk anywhere below (a write that did not name its file) is still said as such.
      const known = err instanceof AppError ? err : diskFullError(err, (err as NodeJS.ErrnoException).path ?? 'a file in the state directory');
      const appErr = known instanceof AppError ? known : new AppError('internal', 'internal error; see the daemon log');
      if (!(known instanceof AppError)) opts.log.error({ err, url: req.url, method: req.method }, 'request failed');
      else if (appErr.code === 'disk_full') opts.log.error({ url: req.url, method: req.method }, appErr.message);
      // The connection stays usable only if the rest of the body was read; a peer without the
      // token gets no more of our time.
      const drained = appErr.code !== 'unauthorized' && (await discardBody(req));
      if (!drained) res.setHeader('connection', 'close');
      sendError(res, appErr);
    });
  };

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (opts.token !== undefined && !authorized(req, opts.token)) {
      throw new AppError('unauthorized', 'missing or wrong bearer token (see the token file in the state directory)');
    }
    let url: URL;
    try {
      url = new URL(req.url ?? '/', 'http://nightshift');
    } catch {
      throw new AppError('bad_request', 'malformed request URL');
    }
    // Matched on the path as sent: a URL parser resolves `%2E%2E` as `..`, so `/v1/groups/%2E%2E`
    // would land on `/v1/` ("no such endpoint") instead of the endpoint that can say what is wrong.
    const pathname = (req.url ?? '/').split(/[?#]/)[0] ?? '/';
    let pathOk = true;
    const candidates = ROUTES.flatMap((r) => {
      try {
        const params = r.match(pathname);
        return params ? [{ r, params }] : [];
      } catch {
        pathOk = false; // bad percent-encoding
        return [];
      }
    });
    if (!pathOk) throw new AppError('bad_request', 'malformed percent-encoding in the request path');
    if (candidates.length === 0) throw new AppError('not_found', `no such endpoint: ${pathname}`);
    const hit = candidates.find((c) => c.r.endpoint.method === req.method);
    if (!hit) throw new AppError('method_not_allowed', `${req.method} is not allowed on ${pathname}`);
    const e = hit.r.endpoint;
    const params: Record<string, unknown> = {};
    for (const [k, schema] of Object.entries(e.params ?? {})) {
      checkPathParam(k, hit.params[k] ?? '');
      params[k] = parse(schema, hit.params[k]);
    }
    const query: Record<string, string> = {};
    for (const [k, v] of url.searchParams) query[k] = v;
    const call: Call<Endpoint> = {
      req,
      res,
      params,
      query: e.query ? parse(e.query, query) : undefined,
      body: e.body ? parse(e.body, await readJsonBody(req, opts.maxRequestBytes())) : undefined,
    };
    // The table pairs each endpoint with its handler's types; here they meet as one.
    const out = (await (opts.handlers[hit.r.name] as (c: Call<Endpoint>) => Promise<unknown>)(call)) as Answered;
    if (e.reply.kind === 'json') {
      const { status, json } = out as { status?: number; json: unknown };
      // Tasks go out with their flat status beside state and outcome (api/task-json.ts).
      const body = JSON.stringify(json, withFlatStatus);
      res.writeHead(status ?? e.reply.status ?? 200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
      res.end(body);
    } else if (e.reply.kind === 'bytes') {
      const { data, meta } = out as { data: Buffer; meta: unknown };
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': data.length, 'x-nightshift-output': JSON.stringify(meta) });
      res.end(data);
    }
  }
}
