/**
 * The dashboard's fetch wrapper: the same endpoints the CLI calls (src/api/endpoints.ts), typed by
 * the table. Only types come from there (no zod in the bundle); the method and path of each route it
 * uses are spelled here and checked against the table at compile time.
 */
import type { z } from 'zod';
import type { EndpointName, Endpoints, PathParams } from '../../api/endpoints.js';
import { fillPath } from '../../api/path.js';
import type { OutputMeta } from '../../api/tasks.js';
import { at } from './base.js';

const ROUTES = {
  status: ['GET', '/v1/status'],
  listTasks: ['GET', '/v1/tasks'],
  getTask: ['GET', '/v1/tasks/:id'],
  taskOutput: ['GET', '/v1/tasks/:id/output'],
  followTaskEvents: ['GET', '/v1/tasks/:id/follow/sse'],
  sendInput: ['POST', '/v1/tasks/:id/input'],
  killTask: ['POST', '/v1/tasks/:id/kill'],
  restartTask: ['POST', '/v1/tasks/:id/restart'],
  events: ['GET', '/v1/events'],
  listGroups: ['GET', '/v1/groups'],
  listMemories: ['GET', '/v1/memories'],
  getMemory: ['GET', '/v1/memories/:id'],
  forgetMemory: ['POST', '/v1/memories/:id/forget'],
  restoreMemory: ['POST', '/v1/memories/:id/restore'],
  pinMemory: ['POST', '/v1/memories/:id/pin'],
  editMemory: ['POST', '/v1/memories/:id/edit'],
  memoryHistory: ['GET', '/v1/memories/:id/history'],
  memorySources: ['GET', '/v1/memories/:id/sources'],
  projects: ['GET', '/v1/projects'],
  recall: ['POST', '/v1/recall'],
  listDreams: ['GET', '/v1/dreams'],
  dreamProgress: ['POST', '/v1/dreams/progress'],
  followDream: ['GET', '/v1/dreams/:id/follow'],
  getDream: ['GET', '/v1/dreams/:id'],
  sessions: ['GET', '/v1/sessions'],
  getSession: ['GET', '/v1/sessions/:id'],
  injections: ['GET', '/v1/injections'],
  rejectMemory: ['POST', '/v1/memories/:id/reject'],
} as const satisfies { [N in EndpointName]?: readonly [Endpoints[N]['method'], Endpoints[N]['path']] };

export type Routed = keyof typeof ROUTES;

/** What endpoint N answers (JSON endpoints). */
export type Json<N extends EndpointName> = Endpoints[N]['reply'] extends { kind: 'json'; schema: infer S extends z.ZodTypeAny } ? z.infer<S> : never;
type Body<N extends EndpointName> = Endpoints[N] extends { body: infer B extends z.ZodTypeAny } ? z.input<B> : never;
type Query<N extends EndpointName> = Endpoints[N] extends { query: infer Q extends z.ZodTypeAny }
  ? { [K in keyof z.input<Q>]?: string | number | undefined }
  : never;

export interface Input<N extends Routed> {
  params?: Record<PathParams<Endpoints[N]['path']>, string>;
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
export function urlOf<N extends Routed>(name: N, input: Input<N> = {}): string {
  const params = (input.params ?? {}) as Record<string, string>;
  const path = fillPath(ROUTES[name][1], params);
  const qs = new URLSearchParams();
  for (const [k, v] of Object.entries((input.query ?? {}) as Record<string, string | number | undefined>)) if (v !== undefined) qs.set(k, String(v));
  return qs.size > 0 ? `${at(path)}?${qs}` : at(path);
}

async function request<N extends Routed>(name: N, input: Input<N>, signal?: AbortSignal): Promise<Response> {
  const method = ROUTES[name][0];
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
export async function call<N extends Routed>(name: N, input: Input<N> = {}, signal?: AbortSignal): Promise<Json<N>> {
  return (await (await request(name, input, signal)).json()) as Json<N>;
}

/** A task's output as text (whole UTF-8 characters) with where it starts and where to read next. */
export async function readOutput(id: string, offset: number, limit: number): Promise<{ text: string; meta: OutputMeta }> {
  const res = await request('taskOutput', { params: { id }, query: { offset, limit, text: '1' } });
  const meta = JSON.parse(res.headers.get('x-nightshift-output') ?? '{}') as OutputMeta;
  return { text: await res.text(), meta };
}

/** NDJSON lines of a streaming endpoint until it ends or `signal` aborts. */
export async function streamLines<N extends Routed>(name: N, input: Input<N>, onLine: (line: string) => void, signal: AbortSignal): Promise<void> {
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
