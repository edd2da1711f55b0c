/**
 * The client of the hot commands (run, output, wait, ingest, the hooks): the same routes as ApiClient
 * (api/routes.ts, zod-free) and its types (at compile time only), without loading zod or node:http, which
 * would double what these commands add to Node's start-up. The answer is checked by hand for the
 * fields the commands use; the daemon built it from its own validated state.
 */
import type { EndpointName } from '../api/endpoints.js';
import { ROUTES, routeUrl } from '../api/routes.js';
// The daemon's answer as it is: state and outcome with the flat status beside them.
import type { OutputMeta, TaskJson as Task } from '../api/tasks.js';
import { AppError } from '../errors.js';
import type { Answer, CallInput } from './api-client.js';
import { answerError, exchange, type RawAnswer } from './socket-http.js';

type Light = 'runTask' | 'taskOutput' | 'waitTask' | 'recall' | 'recallPrompt' | 'ingest' | 'injectSessionStart' | 'injectPrompt';
type Body<N extends Light> = CallInput<N> extends { body: infer B } ? B : never;

const pathTo = (name: Light, id?: string, query: Record<string, number | undefined> = {}): string => routeUrl(name, id !== undefined ? { id } : {}, query);

function json(a: RawAnswer, name: EndpointName): Record<string, unknown> {
  if (a.status >= 400) throw answerError(a);
  let v: unknown;
  try {
    v = JSON.parse(a.body.toString('utf8'));
  } catch {
    v = undefined;
  }
  if (typeof v !== 'object' || v === null) throw new AppError('internal', `unexpected response from the daemon for ${name}`);
  return v as Record<string, unknown>;
}

function task(v: unknown, name: EndpointName): Task {
  const t = v as { id?: unknown; status?: unknown } | undefined;
  if (typeof t?.id !== 'string' || typeof t.status !== 'string') throw new AppError('internal', `unexpected response from the daemon for ${name}: no task`);
  return t as Task;
}

export class LightClient {
  constructor(
    readonly socket: string,
    private readonly timeoutMs?: number,
  ) {}

  private send(name: Light, path: string, body?: unknown): Promise<RawAnswer> {
    return exchange(this.socket, {
      method: ROUTES[name].method,
      path,
      ...(body !== undefined ? { body } : {}),
      ...(this.timeoutMs !== undefined ? { timeoutMs: this.timeoutMs } : {}),
    });
  }

  async run(req: Body<'runTask'>): Promise<Task> {
    return task(json(await this.send('runTask', pathTo('runTask'), req), 'runTask').task, 'runTask');
  }

  /** As ApiClient.output: `text` reads in whole UTF-8 characters. */
  async output(taskId: string, q: { offset?: number; limit?: number; lines?: number; text?: boolean } = {}): Promise<{ data: Buffer; meta: OutputMeta }> {
    const { text, ...rest } = q;
    const a = await this.send('taskOutput', pathTo('taskOutput', taskId, { ...rest, ...(text ? { text: 1 } : {}) }));
    if (a.status >= 400) throw answerError(a);
    let meta: OutputMeta | undefined;
    try {
      meta = JSON.parse(a.headers['x-nightshift-output'] ?? '') as OutputMeta;
    } catch {
      meta = undefined;
    }
    if (typeof meta?.offset !== 'number' || typeof meta.size !== 'number')
      throw new AppError('internal', 'unexpected response from the daemon for taskOutput: no output metadata');
    return { data: a.body, meta };
  }

  async wait(taskId: string, timeoutSeconds?: number): Promise<Answer<'waitTask'>> {
    const r = json(await this.send('waitTask', pathTo('waitTask', taskId, { timeout: timeoutSeconds })), 'waitTask');
    return { task: task(r.task, 'waitTask'), timedOut: r.timedOut === true };
  }

  async recall(req: Body<'recall'>): Promise<Answer<'recall'>> {
    return items(json(await this.send('recall', pathTo('recall'), req), 'recall'), 'recall') as Answer<'recall'>;
  }

  async recallPrompt(req: Body<'recallPrompt'>): Promise<Answer<'recallPrompt'>> {
    return items(json(await this.send('recallPrompt', pathTo('recallPrompt'), req), 'recallPrompt'), 'recallPrompt') as Answer<'recallPrompt'>;
  }

  /** What a hook injects (`context`, '' for nothing), recorded by the daemon in its injection ledger. */
  async inject(name: 'injectSessionStart' | 'injectPrompt', req: Body<'injectSessionStart'> | Body<'injectPrompt'>): Promise<string> {
    const r = json(await this.send(name, pathTo(name), req), name);
    if (typeof r.context !== 'string') throw new AppError('internal', `unexpected response from the daemon for ${name}: no context`);
    return r.context;
  }

  async ingest(req: Body<'ingest'>): Promise<Answer<'ingest'>> {
    return json(await this.send('ingest', pathTo('ingest'), req), 'ingest') as Answer<'ingest'>;
  }
}

function items(r: Record<string, unknown>, name: EndpointName): Record<string, unknown> {
  if (!Array.isArray(r.items)) throw new AppError('internal', `unexpected response from the daemon for ${name}: no items`);
  return r;
}
