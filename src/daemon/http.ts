import type { IncomingMessage, ServerResponse } from 'node:http';
import type { z } from 'zod';
import type { Endpoint, EndpointName, Endpoints, Reply } from '../api/endpoints.js';
import { AppError } from '../errors.js';

/** What a handler gets: the request's parts, each already validated against the endpoint's schemas. */
export interface Call<E extends Endpoint> {
  req: IncomingMessage;
  res: ServerResponse;
  params: { [K in keyof E['params']]: E['params'][K] extends z.ZodTypeAny ? z.infer<E['params'][K]> : never };
  query: E['query'] extends z.ZodTypeAny ? z.infer<E['query']> : undefined;
  body: E['body'] extends z.ZodTypeAny ? z.infer<E['body']> : undefined;
}

/** A JSON answer (`status` when not the endpoint's usual one), bytes with their metadata, or 'streamed' (written by the handler). */
export type Answer<R extends Reply> = R extends { kind: 'json'; schema: infer S extends z.ZodTypeAny }
  ? { status?: number; json: z.input<S> }
  : R extends { kind: 'bytes'; meta: infer M extends z.ZodTypeAny }
    ? { data: Buffer; meta: z.input<M> }
    : 'streamed';

export type Handler<N extends EndpointName> = (call: Call<Endpoints[N]>) => Promise<Answer<Endpoints[N]['reply']>>;

/** Every endpoint of the table has its handler: a missing one does not compile. */
export type Handlers = { [N in EndpointName]: Handler<N> };

/** Validates once at the boundary; zod's complaints become one readable 400 naming `what`. */
export function parse<S extends z.ZodType>(schema: S, value: unknown, what = schema.description ?? 'request'): z.infer<S> {
  const r = schema.safeParse(value);
  if (r.success) return r.data;
  const detail = r.error.issues
    .slice(0, 5)
    .map((i) => (i.path.length ? `${i.path.join('.')}: ${i.message}` : i.message))
    .join('; ');
  throw new AppError('bad_request', `invalid ${what}: ${detail}`);
}

/** Reads a JSON body, refusing more than `limit` bytes without buffering them. */
export function readJsonBody(req: IncomingMessage, limit: number): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length'] ?? 0);
    if (declared > limit) {
      reject(new AppError('payload_too_large', `request body of ${declared} bytes exceeds the limit of ${limit}`));
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let failed = false;
    req.on('data', (c: Buffer) => {
      if (failed) return;
      size += c.length;
      if (size > limit) {
        failed = true;
        reject(new AppError('payload_too_large', `request body exceeds the limit of ${limit} bytes`));
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => {
      if (failed) return;
      const text = Buffer.concat(chunks).toString('utf8');
      if (text.trim() === '') {
        resolve({});
        return;
      }
      try {
        resolve(JSON.parse(text));
      } catch (err) {
        reject(new AppError('bad_request', `request body is not valid JSON: ${(err as Error).message}`));
      }
    });
    req.on('error', reject);
  });
}

/**
 * Reads a body whole but keeps only its first `keep` bytes (`cut`: there was more); past `drop`
 * bytes it gives up, and the connection must be closed. Read to its end before the answer, so a
 * client still sending meets no closed connection instead of the answer.
 */
export function readBodyPrefix(req: IncomingMessage, keep: number, drop: number): Promise<{ data: Buffer; cut: boolean }> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let kept = 0;
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > drop) {
        req.destroy();
        reject(new AppError('payload_too_large', `request body exceeds ${drop} bytes`));
        return;
      }
      if (kept >= keep) return;
      const part = c.subarray(0, keep - kept);
      chunks.push(part);
      kept += part.length;
    });
    req.on('end', () => resolve({ data: Buffer.concat(chunks), cut: size > keep }));
    req.on('error', reject);
  });
}

/** A refused body is read and dropped up to this size before the answer; past it the connection is cut. */
const DISCARD_CAP = 64 * 1024 * 1024;

/**
 * Reads and drops the rest of the request body; resolves true once it has ended, false when it is
 * too big to wait for (the connection must then be closed). An error answer sent while the client
 * is still sending, followed by a close, makes the client meet EPIPE instead of reading why.
 */
export function discardBody(req: IncomingMessage): Promise<boolean> {
  if (req.complete) return Promise.resolve(true);
  if (req.destroyed || Number(req.headers['content-length'] ?? 0) > DISCARD_CAP) return Promise.resolve(false);
  return new Promise((resolve) => {
    let dropped = 0;
    const done = (drained: boolean) => {
      req.off('data', onData);
      resolve(drained);
    };
    const onData = (c: Buffer) => {
      dropped += c.length;
      if (dropped > DISCARD_CAP) done(false);
    };
    req.on('data', onData);
    req.once('end', () => done(true));
    req.once('close', () => done(req.complete));
    req.once('error', () => done(false));
    req.resume();
  });
}

/** Compiles "/v1/tasks/:id/output" into a matcher. */
export function compile(path: string): (p: string) => Record<string, string> | null {
  const keys: string[] = [];
  const re = new RegExp(
    `^${path.replace(/:([a-z]+)/g, (_m, k: string) => {
      keys.push(k);
      return '([^/]+)';
    })}$`,
  );
  return (p) => {
    const m = re.exec(p);
    if (!m) return null;
    const params: Record<string, string> = {};
    keys.forEach((k, i) => {
      params[k] = decodeURIComponent(m[i + 1] ?? '');
    });
    return params;
  };
}

/**
 * Runs `then` once the whole answer was handed to the client's connection, never when the client
 * closed it first (a hook that gave up waiting): no confirmation round trip, nothing more for the
 * client to do. Written to a closed unix socket the answer fails with EPIPE, yet 'finish' still
 * comes (node calls the write's callback before it marks the socket errored), so the socket's
 * error is read a turn later. What stays open is an answer written the instant before the client
 * gave up: it reached the client's socket unread.
 */
export function afterDelivery(req: IncomingMessage, res: ServerResponse, then: () => void): void {
  const socket = req.socket;
  res.once('finish', () =>
    setImmediate(() => {
      if (!socket.errored) then();
    }),
  );
}
