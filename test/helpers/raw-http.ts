import { Agent, request } from 'node:http';

export interface RawRequest {
  method: string;
  path: string;
  headers?: Record<string, string | number>;
  /** A string or Buffer is sent as is; `chunked: true` leaves out the content-length. */
  body?: string | Buffer;
  chunked?: boolean;
}

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/**
 * One HTTP request over a unix socket (or TCP), with no client-side validation beyond node:http's
 * own: bodies, paths and headers go out exactly as given. A transport error rejects.
 */
export function rawRequest(target: { socketPath: string } | { host: string; port: number }, r: RawRequest, timeoutMs = 10_000): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | number> = { ...(r.headers ?? {}) };
    if (r.body !== undefined && !r.chunked && headers['content-length'] === undefined) {
      headers['content-length'] = Buffer.byteLength(r.body);
    }
    // A keep-alive connection of its own, like the typed client's (node's global agent keeps alive).
    // With `agent: false` node asks for Connection: close and, after a large body, writes one more
    // empty chunk that races the server's close (EPIPE): a node client quirk, seen with any server.
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const req = request({ ...target, method: r.method, path: r.path, headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        clearTimeout(timer);
        agent.destroy();
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') });
      });
      res.on('error', reject);
    });
    const timer = setTimeout(() => req.destroy(new Error(`${r.method} ${r.path.slice(0, 80)} timed out`)), timeoutMs);
    req.on('error', (err) => {
      clearTimeout(timer);
      agent.destroy();
      reject(new Error(`${r.method} ${r.path.slice(0, 80)}: ${err.message}`));
    });
    if (r.body === undefined) req.end();
    else if (r.chunked) {
      // A write before end() makes node send the body chunked, without a content-length.
      req.write(r.body);
      req.end();
    } else req.end(r.body);
  });
}

/** Parses `{error: {code, message}}` or explains why the body is not that. */
export function errorBody(res: RawResponse): { code: string; message: string } | string {
  let json: unknown;
  try {
    json = JSON.parse(res.body);
  } catch {
    return `body is not JSON: ${JSON.stringify(res.body.slice(0, 200))}`;
  }
  const e = (json as { error?: { code?: unknown; message?: unknown } } | null)?.error;
  if (!e || typeof e.code !== 'string' || typeof e.message !== 'string') return `body has no {error:{code,message}}: ${res.body.slice(0, 200)}`;
  if (e.code === '' || e.message.trim() === '') return `empty code or message: ${res.body.slice(0, 200)}`;
  return { code: e.code, message: e.message };
}

/** Runs `fn` over `items` with at most `limit` at once; results keep the order of `items`. */
export async function pool<T, R>(items: T[], limit: number, fn: (item: T, i: number) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const workers = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i] as T, i);
    }
  });
  await Promise.all(workers);
  return out;
}
