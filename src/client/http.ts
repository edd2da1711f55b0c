/** HTTP/1.1 to the daemon: over its unix socket, or loopback TCP with the bearer token. */
import { request, type IncomingMessage, type RequestOptions } from 'node:http';
import { ErrorBody } from '../api/status.js';
import { AppError, type ErrorCode } from '../errors.js';

/** Where the daemon answers. */
export type DaemonAddress = { socket: string } | { url: string; token: string };

export interface HttpCall {
  method: string;
  /** Path and query, already encoded (api/routes.ts: routeUrl). */
  path: string;
  body?: unknown;
  signal?: AbortSignal;
  /** Abort when not answered in this time. */
  timeoutMs?: number;
}

export function describeAddress(a: DaemonAddress): string {
  return 'socket' in a ? a.socket : a.url;
}

/** Sends one request; resolves with the response (its status not yet checked). */
export function send(address: DaemonAddress, call: HttpCall): Promise<IncomingMessage> {
  const { path } = call;
  const body = call.body === undefined ? undefined : Buffer.from(JSON.stringify(call.body));
  const headers: Record<string, string | number> = {};
  if (body) {
    headers['content-type'] = 'application/json';
    headers['content-length'] = body.length;
  }
  const { signal, timeoutMs } = call;
  const timeout = timeoutMs === undefined ? undefined : AbortSignal.timeout(timeoutMs);
  const combined = signal && timeout ? AbortSignal.any([signal, timeout]) : (signal ?? timeout);
  const opts: RequestOptions = { method: call.method, path, headers, ...(combined ? { signal: combined } : {}) };
  if ('socket' in address) {
    opts.socketPath = address.socket;
  } else {
    const u = new URL(address.url);
    opts.host = u.hostname.replace(/^\[|\]$/g, '');
    opts.port = Number(u.port);
    headers.authorization = `Bearer ${address.token}`;
  }
  return new Promise((resolve, reject) => {
    const req = request(opts, resolve);
    req.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT' || err.code === 'ECONNREFUSED') {
        reject(new AppError('daemon_unavailable', `the nightshift daemon is not running (no answer on ${describeAddress(address)})`));
      } else if (err.name === 'AbortError' && timeout?.aborted && !signal?.aborted) {
        reject(new AppError('timeout', `the daemon did not answer within ${timeoutMs} ms`));
      } else if (err.name === 'AbortError') {
        reject(err);
      } else {
        reject(new AppError('connection_lost', `lost the connection to the daemon: ${err.message}`));
      }
    });
    req.end(body);
  });
}

/** Throws the daemon's error (its code and message) when the response is one. */
export async function checkStatus(res: IncomingMessage): Promise<void> {
  const status = res.statusCode ?? 500;
  if (status < 400) return;
  const data = await readAll(res);
  try {
    const body = ErrorBody.parse(JSON.parse(data.toString('utf8')));
    throw new AppError(body.error.code as ErrorCode, body.error.message);
  } catch (err) {
    if (err instanceof AppError) throw err;
    throw new AppError('internal', `daemon answered HTTP ${status}`);
  }
}

export function readAll(res: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    res.on('data', (c: Buffer) => chunks.push(c));
    res.on('end', () => resolve(Buffer.concat(chunks)));
    res.on('error', reject);
  });
}

/** Calls onLine for each non-empty line of a newline-delimited response until it ends. */
export function readLines(res: IncomingMessage, onLine: (line: string) => void): Promise<void> {
  let buf = '';
  res.setEncoding('utf8');
  return new Promise<void>((resolve, reject) => {
    res.on('data', (c: string) => {
      buf += c;
      let nl;
      while ((nl = buf.indexOf('\n')) >= 0) {
        const line = buf.slice(0, nl);
        buf = buf.slice(nl + 1);
        if (line.trim()) onLine(line);
      }
    });
    res.on('end', resolve);
    res.on('error', reject);
  });
}

export function safeJson(data: Buffer | string): unknown {
  try {
    return JSON.parse(data.toString());
  } catch {
    return undefined; // reported by the schema check as an unexpected response
  }
}
