/**
 * One HTTP/1.1 exchange with the daemon over its unix socket, on node:net alone. The hot commands
 * (run, output, wait, the hooks) use it instead of node:http, whose load costs them ~8 ms of CPU:
 * a third of what `nightshift run` may add to Node's own start-up. The request says
 * `connection: close`, so the answer ends with the connection; the daemon sends a content-length.
 */
import { connect } from 'node:net';
import { AppError, type ErrorCode } from '../errors.js';

export interface RawAnswer {
  status: number;
  /** Lower-case names. */
  headers: Record<string, string>;
  body: Buffer;
}

export interface RawRequest {
  method: string;
  /** Path and query, already encoded. */
  path: string;
  body?: unknown;
  /** Give up (with a `timeout` error) when the answer has not come in this time. */
  timeoutMs?: number;
}

export function exchange(socket: string, req: RawRequest): Promise<RawAnswer> {
  const body = req.body === undefined ? '' : JSON.stringify(req.body);
  const head =
    `${req.method} ${req.path} HTTP/1.1\r\nhost: nightshift\r\nconnection: close\r\n` +
    (body ? `content-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n` : '');
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let connected = false;
    let settled = false;
    const s = connect(socket);
    const fail = (err: AppError) => {
      if (settled) return;
      settled = true;
      s.destroy();
      reject(err);
    };
    const timer =
      req.timeoutMs === undefined
        ? undefined
        : setTimeout(() => fail(new AppError('timeout', `the daemon did not answer within ${req.timeoutMs} ms`)), req.timeoutMs);
    s.on('connect', () => {
      connected = true;
      s.write(`${head}\r\n${body}`);
    });
    s.on('data', (c: Buffer) => chunks.push(c));
    s.on('error', (err: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      if (!connected && (err.code === 'ENOENT' || err.code === 'ECONNREFUSED')) {
        fail(new AppError('daemon_unavailable', `the nightshift daemon is not running (no answer on ${socket})`));
      } else {
        fail(new AppError('connection_lost', `lost the connection to the daemon: ${err.message}`));
      }
    });
    s.on('end', () => {
      clearTimeout(timer);
      if (settled) return;
      settled = true;
      try {
        resolve(parseAnswer(Buffer.concat(chunks)));
      } catch (err) {
        reject(err);
      }
    });
  });
}

function parseAnswer(raw: Buffer): RawAnswer {
  const end = raw.indexOf('\r\n\r\n');
  if (end < 0) throw new AppError('connection_lost', 'the daemon closed the connection before answering');
  const [statusLine = '', ...lines] = raw.subarray(0, end).toString('latin1').split('\r\n');
  const status = Number(/^HTTP\/1\.[01] ([0-9]{3})/.exec(statusLine)?.[1]);
  if (!status) throw new AppError('internal', `unexpected answer from the daemon: ${statusLine.slice(0, 80)}`);
  const headers: Record<string, string> = {};
  for (const l of lines) {
    const colon = l.indexOf(':');
    if (colon > 0) headers[l.slice(0, colon).trim().toLowerCase()] = l.slice(colon + 1).trim();
  }
  let body = raw.subarray(end + 4);
  if (headers['transfer-encoding'] === 'chunked') body = dechunk(body);
  else if (headers['content-length'] !== undefined) {
    const length = Number(headers['content-length']);
    if (body.length < length) throw new AppError('connection_lost', `the daemon's answer ended after ${body.length} of ${length} bytes`);
    body = body.subarray(0, length);
  }
  return { status, headers, body };
}

function dechunk(data: Buffer): Buffer {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const nl = data.indexOf('\r\n', at);
    const size = nl < 0 ? NaN : parseInt(data.subarray(at, nl).toString('latin1'), 16);
    if (Number.isNaN(size)) throw new AppError('connection_lost', 'the daemon’s chunked answer broke off');
    if (size === 0) return Buffer.concat(parts);
    parts.push(data.subarray(nl + 2, nl + 2 + size));
    at = nl + 2 + size + 2;
  }
}

/** The daemon's error answer (`{"error": {code, message}}`) as the AppError it stands for. */
export function answerError(a: RawAnswer): AppError {
  let parsed: unknown;
  try {
    parsed = JSON.parse(a.body.toString('utf8'));
  } catch {
    parsed = undefined;
  }
  const e = (parsed as { error?: { code?: unknown; message?: unknown } } | undefined)?.error;
  if (typeof e?.code === 'string' && typeof e.message === 'string') return new AppError(e.code as ErrorCode, e.message);
  return new AppError('internal', `daemon answered HTTP ${a.status}`);
}
