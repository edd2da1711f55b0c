/**
 * Calls to the daemon by route name (api/routes.ts): the request typed by the endpoint table, the
 * path and query encoded as every client encodes them, a JSON answer checked against the zod schema
 * the daemon answers with. ApiClient adds a method per command on top.
 */
import type { IncomingMessage } from 'node:http';
import type { z } from 'zod';
import { ENDPOINTS, type EndpointName, type Endpoints, type EndpointsReplying } from '../api/endpoints.js';
import { ROUTES, routeUrl, type PathParams } from '../api/routes.js';
import { AppError } from '../errors.js';
import { checkStatus, readAll, safeJson, send, type DaemonAddress } from './http.js';

export interface ClientOptions {
  /** Abort any request that has not been answered in this time (hooks must never hold an agent up). */
  timeoutMs?: number;
}

export type Input<S> = S extends z.ZodTypeAny ? z.input<S> : never;

/** What a call to endpoint N takes: its path parameters, query and body, as the table declares them. */
export type CallInput<N extends EndpointName> = ([PathParams<Endpoints[N]['path']>] extends [never]
  ? unknown
  : { params: Record<PathParams<Endpoints[N]['path']>, string> }) &
  (Endpoints[N] extends { query: z.ZodTypeAny } ? { query?: { [K in keyof Input<Endpoints[N]['query']>]?: string | number | undefined } } : unknown) &
  (Endpoints[N] extends { body: z.ZodTypeAny } ? { body: Input<Endpoints[N]['body']> } : unknown);

/** What endpoint N answers (JSON endpoints). */
export type Answer<N extends EndpointName> = Endpoints[N]['reply'] extends { kind: 'json'; schema: infer S extends z.ZodTypeAny } ? z.infer<S> : never;

export interface AnyInput {
  params?: Record<string, string>;
  query?: Record<string, string | number | undefined>;
  body?: unknown;
}

export class ApiCaller {
  constructor(
    readonly address: DaemonAddress,
    private readonly options: ClientOptions = {},
  ) {}

  /** One JSON endpoint: the request as the table types it, the answer checked by its schema. */
  async call<N extends EndpointsReplying<'json'>>(name: N, input: CallInput<N>): Promise<Answer<N>> {
    const res = await this.open(name, input as AnyInput);
    await checkStatus(res);
    const reply = ENDPOINTS[name].reply as { schema: z.ZodTypeAny };
    const parsed = reply.schema.safeParse(safeJson(await readAll(res)));
    if (!parsed.success) throw new AppError('internal', `unexpected response from the daemon for ${name}: ${parsed.error.message}`);
    return parsed.data as Answer<N>;
  }

  /** The response to a call of any kind, its status not yet checked. */
  protected open(name: EndpointName, input: AnyInput, signal?: AbortSignal): Promise<IncomingMessage> {
    return send(this.address, {
      method: ROUTES[name].method,
      path: routeUrl(name, input.params, input.query),
      ...(input.body !== undefined ? { body: input.body } : {}),
      ...(signal ? { signal } : {}),
      ...(this.options.timeoutMs !== undefined ? { timeoutMs: this.options.timeoutMs } : {}),
    });
  }
}
