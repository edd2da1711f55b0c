import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { AppError } from '../errors.js';
import type { Logger } from '../log.js';
import { compile, readJsonBody, type Route } from './http.js';

interface Compiled extends Route {
  match: (p: string) => Record<string, string> | null;
}

export interface ServerOptions {
  routes: Route[];
  maxRequestBytes: number;
  log: Logger;
  /** When set (TCP listener), every request must carry `Authorization: Bearer <token>`. */
  token?: string;
}

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

/** HTTP/1.1 + JSON. One table of routes; every failure is a JSON error with a code and a message. */
export function createApiServer(opts: ServerOptions): Server {
  const routes: Compiled[] = opts.routes.map((r) => ({ ...r, match: compile(r.path) }));
  const server = createServer({ requestTimeout: 0, headersTimeout: 10_000 }, (req, res) => {
    void handle(req, res).catch((err: unknown) => {
      const appErr = err instanceof AppError ? err : new AppError('internal', 'internal error; see the daemon log');
      if (!(err instanceof AppError)) opts.log.error({ err, url: req.url, method: req.method }, 'request failed');
      if (appErr.code === 'payload_too_large') res.setHeader('connection', 'close');
      sendError(res, appErr);
    });
  });

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
    let pathOk = true;
    const candidates = routes.flatMap((r) => {
      try {
        const params = r.match(url.pathname);
        return params ? [{ r, params }] : [];
      } catch {
        pathOk = false; // bad percent-encoding
        return [];
      }
    });
    if (!pathOk) throw new AppError('bad_request', 'malformed percent-encoding in the request path');
    if (candidates.length === 0) throw new AppError('not_found', `no such endpoint: ${url.pathname}`);
    const hit = candidates.find((c) => c.r.method === req.method);
    if (!hit) throw new AppError('method_not_allowed', `${req.method} is not allowed on ${url.pathname}`);
    const query: Record<string, string> = {};
    for (const [k, v] of url.searchParams) query[k] = v;
    const out = await hit.r.handler({
      req,
      res,
      params: hit.params,
      query,
      body: () => readJsonBody(req, opts.maxRequestBytes),
    });
    if (out === 'streamed') return;
    const body = JSON.stringify(out.json);
    res.writeHead(out.status ?? 200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  }

  return server;
}
