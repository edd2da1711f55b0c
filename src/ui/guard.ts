/** What every request to the dashboard passes before anything answers it: DNS rebinding and cross-site checks, security headers. */
import type { IncomingMessage, ServerResponse } from 'node:http';

export const CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; font-src 'self'; " +
  "base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/** Headers every answer carries, errors included. */
export function securityHeaders(res: ServerResponse): void {
  res.setHeader('content-security-policy', CSP);
  res.setHeader('x-content-type-options', 'nosniff');
  res.setHeader('referrer-policy', 'no-referrer');
  res.setHeader('x-frame-options', 'DENY');
  res.setHeader('cross-origin-opener-policy', 'same-origin');
  res.setHeader('cross-origin-resource-policy', 'same-origin');
}

/**
 * Why a request is refused, or null. A Host other than the dashboard's own is a page of another
 * site whose name now points at 127.0.0.1 (DNS rebinding). A state-changing request must come from
 * the dashboard's own pages: its Origin says so (browsers always send one on POST and DELETE), or,
 * without one, Sec-Fetch-Site does.
 */
export function refusal(req: IncomingMessage, port: number): { status: number; text: string } | null {
  const host = req.headers.host ?? '';
  if (host !== `127.0.0.1:${port}` && host !== `localhost:${port}`) {
    return { status: 421, text: `refused: the Host header must be 127.0.0.1:${port} or localhost:${port}\n` };
  }
  if (req.method === 'GET' || req.method === 'HEAD') return null;
  const origin = req.headers.origin;
  if (origin !== undefined) {
    return origin === `http://${host}` ? null : { status: 403, text: 'refused: cross-site request (Origin is not the dashboard)\n' };
  }
  return req.headers['sec-fetch-site'] === 'same-origin' ? null : { status: 403, text: 'refused: a state-changing request without Origin\n' };
}

export function sendText(res: ServerResponse, status: number, text: string, type = 'text/plain; charset=utf-8'): void {
  res.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(text), 'cache-control': 'no-store' });
  res.end(text);
}
