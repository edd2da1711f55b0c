/**
 * The dashboard's fetch wrapper: the routes the CLI calls (src/api/routes.ts, zod-free, so the
 * bundle carries the route table and no schema), typed by the endpoint table (types only).
 */
import type { z } from 'zod';
import type { Endpoints } from '../../api/endpoints.js';
import { ROUTES, routeUrl, type ParamsOf, type RouteName } from '../../api/routes.js';
import type { OutputMeta } from '../../api/tasks.js';
import { at } from './base.js';

/** What endpoint N answers (JSON endpoints). */
export type Json<N extends RouteName> = Endpoints[N]['reply'] extends { kind: 'json'; schema: infer S extends z.ZodTypeAny } ? z.infer<S> : never;
type Body<N extends RouteName> = Endpoints[N] extends { body: infer B extends z.ZodTypeAny } ? z.input<B> : never;
type Query<N extends RouteName> = Endpoints[N] extends { query: infer Q extends z.ZodTypeAny }
  ? { [K in keyof z.input<Q>]?: string | number | undefined }
  : never;

export interface Input<N extends RouteName> {
  params?: ParamsOf<N>;
  query?: Query<N>;
  body?: Body<N>;
}

/** The daemon's error: its code and message, and the HTTP status. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** Called when the session is gone (401): the app says how to log in again. */
let onLoggedOut: () => void = () => undefined;
export function whenLoggedOut(fn: () => void): void {
  onLoggedOut = fn;
}

/** The URL of a call (under the app's prefix, where the session cookie goes): its path with each parameter filled in, and its query. */
export function urlOf<N extends RouteName>(name: N, input: Input<N> = {}): string {
  return at(routeUrl(name, input.params as Record<string, string> | undefined, input.query as Record<string, string | number | undefined> | undefined));
}

async function request<N extends RouteName>(name: N, input: Input<N>, signal?: AbortSignal): Promise<Response> {
  const { method } = ROUTES[name];
  const res = await fetch(urlOf(name, input), {
    method,
    headers: input.body !== undefined ? { 'content-type': 'application/json' } : {},
    ...(input.body !== undefined ? { body: JSON.stringify(input.body) } : {}),
    ...(signal ? { signal } : {}),
  });
  if (res.ok) return res;
  if (res.status === 401) onLoggedOut();
  let code = 'internal';
  let message = `HTTP ${res.status}`;
  try {
    const body = (await res.json()) as { error?: { code?: string; message?: string } };
    code = body.error?.code ?? code;
    message = body.error?.message ?? message;
  } catch {
    // not JSON: the status says enough
  }
  throw new ApiError(res.status, code, message);
}

/** One JSON endpoint. */
export async function call<N extends RouteName>(name: N, input: Input<N> = {}, signal?: AbortSignal): Promise<Json<N>> {
  return (await (await request(name, input, signal)).json()) as Json<N>;
}

/** A task's output as text (whole UTF-8 characters) with where it starts and where to read next. */
export async function readOutput(id: string, offset: number, limit: number): Promise<{ text: string; meta: OutputMeta }> {
  const res = await request('taskOutput', { params: { id }, query: { offset, limit, text: '1' } });
  const meta = JSON.parse(res.headers.get('x-nightshift-output') ?? '{}') as OutputMeta;
  return { text: await res.text(), meta };
}

/** NDJSON lines of a streaming endpoint until it ends or `signal` aborts. */
export async function streamLines<N extends RouteName>(name: N, input: Input<N>, onLine: (line: string) => void, signal: AbortSignal): Promise<void> {
  const res = await request(name, input, signal);
  const reader = res.body?.pipeThrough(new TextDecoderStream()).getReader();
  if (!reader) return;
  let buf = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buf += value;
    let nl;
    while ((nl = buf.indexOf('\n')) >= 0) {
      const line = buf.slice(0, nl);
      buf = buf.slice(nl + 1);
      if (line.trim()) onLine(line);
    }
  }
}
