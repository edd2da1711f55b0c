import { request, type IncomingMessage, type RequestOptions } from 'node:http';
import type { z } from 'zod';
import { AppError, type ErrorCode } from '../errors.js';
import {
  ImportResponse,
  IngestResponse,
  MemoryListResponse,
  MemoryResponse,
  RecallResponse,
  SearchResponse,
  SessionListResponse,
  type ImportLine,
  type IngestRequest,
  type Memory,
  type RecallRequest,
  type RememberRequest,
} from './memory.js';
import type { AgentRequest } from './agent.js';
import { DreamListResponse, DreamReport, DreamResponse } from './dream.js';
import { ErrorBody, StatusResponse } from './status.js';
import {
  OkResponse,
  OutputMeta,
  TaskEvent,
  TaskListResponse,
  TaskResponse,
  WaitResponse,
  type RunRequest,
  type SignalName,
  type Task,
} from './tasks.js';

export type Endpoint = { socket: string } | { url: string; token: string };

interface Call {
  method: 'GET' | 'POST' | 'DELETE';
  path: string;
  query?: Record<string, string | number | undefined>;
  body?: unknown;
}

/** The typed client of the daemon API: the same zod schemas as the daemon, used on the way back in. */
export interface ClientOptions {
  /** Abort any request that has not been answered in this time (hooks must never hold an agent up). */
  timeoutMs?: number;
}

export class ApiClient {
  constructor(
    readonly endpoint: Endpoint,
    private readonly options: ClientOptions = {},
  ) {}

  status() {
    return this.json({ method: 'GET', path: '/v1/status' }, StatusResponse);
  }

  async run(req: Omit<RunRequest, 'stdin'> & { stdin?: boolean }): Promise<Task> {
    return (await this.json({ method: 'POST', path: '/v1/tasks', body: req }, TaskResponse)).task;
  }

  async list(all = false): Promise<Task[]> {
    return (await this.json({ method: 'GET', path: '/v1/tasks', query: { all: all ? 1 : 0 } }, TaskListResponse)).tasks;
  }

  async get(id: string): Promise<Task> {
    return (await this.json({ method: 'GET', path: `/v1/tasks/${encodeURIComponent(id)}` }, TaskResponse)).task;
  }

  async remove(id: string): Promise<void> {
    await this.json({ method: 'DELETE', path: `/v1/tasks/${encodeURIComponent(id)}` }, OkResponse);
  }

  async input(id: string, text: string, eof = false): Promise<Task> {
    return (await this.json({ method: 'POST', path: `/v1/tasks/${encodeURIComponent(id)}/input`, body: { text, eof } }, TaskResponse)).task;
  }

  async kill(id: string, signal: SignalName | string = 'SIGTERM'): Promise<Task> {
    return (await this.json({ method: 'POST', path: `/v1/tasks/${encodeURIComponent(id)}/kill`, body: { signal } }, TaskResponse)).task;
  }

  /** Long-polls until the task ends or `timeoutSeconds` pass (the daemon caps one poll at 5 min). */
  wait(id: string, timeoutSeconds?: number) {
    return this.json({ method: 'GET', path: `/v1/tasks/${encodeURIComponent(id)}/wait`, query: { timeout: timeoutSeconds } }, WaitResponse);
  }

  /** Raw output bytes from an offset (or the last `lines` lines), with where to read next. */
  async output(id: string, q: { offset?: number; limit?: number; lines?: number } = {}): Promise<{ data: Buffer; meta: OutputMeta }> {
    const res = await this.send({ method: 'GET', path: `/v1/tasks/${encodeURIComponent(id)}/output`, query: q });
    const data = await readAll(res);
    if ((res.statusCode ?? 500) >= 400) throw toError(res.statusCode ?? 500, data);
    const meta = OutputMeta.parse(JSON.parse(String(res.headers['x-nightshift-output'] ?? '{}')));
    return { data, meta };
  }

  /** Streams output from `offset` until the task has ended and all of it was delivered. */
  async follow(id: string, offset: number, onData: (chunk: Buffer) => void, signal?: AbortSignal): Promise<number> {
    const res = await this.send({ method: 'GET', path: `/v1/tasks/${encodeURIComponent(id)}/follow`, query: { offset } }, signal);
    if ((res.statusCode ?? 500) >= 400) throw toError(res.statusCode ?? 500, await readAll(res));
    let at = offset;
    await new Promise<void>((resolve, reject) => {
      res.on('data', (c: Buffer) => {
        at += c.length;
        onData(c);
      });
      res.on('end', resolve);
      // A daemon that dies mid-stream resets the connection: the caller resumes from the bytes it got.
      res.on('error', (err) => reject(new AppError('connection_lost', `the follow stream broke: ${err.message}`)));
      res.on('aborted', () => reject(new AppError('connection_lost', 'the daemon closed the stream')));
    });
    return at;
  }

  /** Calls onEvent for every task event until the stream ends or `signal` aborts. */
  async events(onEvent: (e: TaskEvent) => void, signal?: AbortSignal): Promise<void> {
    const res = await this.send({ method: 'GET', path: '/v1/events' }, signal);
    if ((res.statusCode ?? 500) >= 400) throw toError(res.statusCode ?? 500, await readAll(res));
    await readLines(res, (line) => onEvent(TaskEvent.parse(JSON.parse(line))));
  }

  // ── agent tasks ──

  /** Starts an agent task (refused at once with model_unavailable when the daemon has no model). */
  async agent(req: AgentRequest): Promise<Task> {
    return (await this.json({ method: 'POST', path: '/v1/agents', body: req }, TaskResponse)).task;
  }

  /** Asks a running agent task to compact its context at its next turn boundary. */
  async compact(id: string): Promise<Task> {
    return (await this.json({ method: 'POST', path: `/v1/agents/${encodeURIComponent(id)}/compact` }, TaskResponse)).task;
  }

  // ── memories ──

  async remember(req: Partial<RememberRequest> & { content: string }): Promise<Memory> {
    return (await this.json({ method: 'POST', path: '/v1/memories', body: req }, MemoryResponse)).memory;
  }

  async memories(q: { project?: string; team?: string; archived?: boolean; all?: boolean } = {}): Promise<Memory[]> {
    const query = { project: q.project, team: q.team, archived: q.archived ? '1' : undefined, all: q.all ? '1' : undefined };
    return (await this.json({ method: 'GET', path: '/v1/memories', query }, MemoryListResponse)).memories;
  }

  async memory(id: string): Promise<Memory> {
    return (await this.json({ method: 'GET', path: `/v1/memories/${encodeURIComponent(id)}` }, MemoryResponse)).memory;
  }

  /** `forget` archives, `restore` brings back an archived or superseded memory, `pin` makes it stable and important. */
  async memoryAction(id: string, action: 'forget' | 'restore' | 'pin'): Promise<Memory> {
    return (await this.json({ method: 'POST', path: `/v1/memories/${encodeURIComponent(id)}/${action}` }, MemoryResponse)).memory;
  }

  importMemories(memories: ImportLine[]) {
    return this.json({ method: 'POST', path: '/v1/memories/import', body: { memories } }, ImportResponse);
  }

  recall(req: Partial<RecallRequest> = {}) {
    return this.json({ method: 'POST', path: '/v1/recall', body: req }, RecallResponse);
  }

  async search(q: { q: string; project?: string; limit?: number }) {
    return (await this.json({ method: 'GET', path: '/v1/search', query: q }, SearchResponse)).hits;
  }

  // ── dreams ──

  async dream(dryRun = false): Promise<DreamReport> {
    return (await this.json({ method: 'POST', path: '/v1/dreams', body: { dryRun } }, DreamResponse)).report;
  }

  /** Runs a dream, calling onPhase as each phase ends. */
  async dreamWithProgress(dryRun: boolean, onPhase: (phase: string, detail: string) => void): Promise<DreamReport> {
    const res = await this.send({ method: 'POST', path: '/v1/dreams/progress', body: { dryRun } });
    if ((res.statusCode ?? 500) >= 400) throw toError(res.statusCode ?? 500, await readAll(res));
    let report: DreamReport | undefined;
    let failure: AppError | undefined;
    await readLines(res, (text) => {
      const line = JSON.parse(text) as { phase?: string; detail?: string; report?: unknown; error?: { message: string } };
      if (line.phase !== undefined) onPhase(line.phase, line.detail ?? '');
      if (line.report !== undefined) report = DreamReport.parse(line.report);
      if (line.error) failure = new AppError('internal', line.error.message);
    });
    if (failure) throw failure;
    if (!report) throw new AppError('connection_lost', 'the daemon ended the dream stream without a report');
    return report;
  }

  async dreams() {
    return (await this.json({ method: 'GET', path: '/v1/dreams' }, DreamListResponse)).dreams;
  }

  async dreamReport(id: string): Promise<DreamReport> {
    return (await this.json({ method: 'GET', path: `/v1/dreams/${encodeURIComponent(id)}` }, DreamResponse)).report;
  }

  // ── sessions ──

  ingest(req: Partial<IngestRequest> & { path: string }) {
    return this.json({ method: 'POST', path: '/v1/ingest', body: req }, IngestResponse);
  }

  async sessions() {
    return (await this.json({ method: 'GET', path: '/v1/sessions' }, SessionListResponse)).sessions;
  }

  private async json<S extends z.ZodType>(call: Call, schema: S): Promise<z.infer<S>> {
    const res = await this.send(call);
    const data = await readAll(res);
    if ((res.statusCode ?? 500) >= 400) throw toError(res.statusCode ?? 500, data);
    const parsed = schema.safeParse(safeJson(data));
    if (!parsed.success) throw new AppError('internal', `unexpected response from the daemon for ${call.path}: ${parsed.error.message}`);
    return parsed.data;
  }

  private send(call: Call, signal?: AbortSignal): Promise<IncomingMessage> {
    const qs = new URLSearchParams();
    for (const [k, v] of Object.entries(call.query ?? {})) if (v !== undefined) qs.set(k, String(v));
    const path = qs.size > 0 ? `${call.path}?${qs}` : call.path;
    const body = call.body === undefined ? undefined : Buffer.from(JSON.stringify(call.body));
    const headers: Record<string, string | number> = {};
    if (body) {
      headers['content-type'] = 'application/json';
      headers['content-length'] = body.length;
    }
    const timeout = this.options.timeoutMs === undefined ? undefined : AbortSignal.timeout(this.options.timeoutMs);
    const combined = signal && timeout ? AbortSignal.any([signal, timeout]) : (signal ?? timeout);
    const opts: RequestOptions = { method: call.method, path, headers, ...(combined ? { signal: combined } : {}) };
    if ('socket' in this.endpoint) {
      opts.socketPath = this.endpoint.socket;
    } else {
      const u = new URL(this.endpoint.url);
      opts.host = u.hostname.replace(/^\[|\]$/g, '');
      opts.port = Number(u.port);
      headers.authorization = `Bearer ${this.endpoint.token}`;
    }
    return new Promise((resolve, reject) => {
      const req = request(opts, resolve);
      req.on('error', (err: NodeJS.ErrnoException) => {
        if (err.code === 'ENOENT' || err.code === 'ECONNREFUSED') {
          reject(new AppError('daemon_unavailable', `the nightshift daemon is not running (no answer on ${describe(this.endpoint)})`));
        } else if (err.name === 'AbortError' && timeout?.aborted && !signal?.aborted) {
          reject(new AppError('timeout', `the daemon did not answer within ${this.options.timeoutMs} ms`));
        } else if (err.name === 'AbortError') {
          reject(err);
        } else {
          reject(new AppError('connection_lost', `lost the connection to the daemon: ${err.message}`));
        }
      });
      req.end(body);
    });
  }
}

function describe(e: Endpoint): string {
  return 'socket' in e ? e.socket : e.url;
}

function safeJson(data: Buffer): unknown {
  try {
    return JSON.parse(data.toString('utf8'));
  } catch {
    return undefined; // reported by the schema check as an unexpected response
  }
}

/** Calls onLine for each non-empty line of a newline-delimited response until it ends. */
function readLines(res: IncomingMessage, onLine: (line: string) => void): Promise<void> {
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

function readAll(res: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    res.on('data', (c: Buffer) => chunks.push(c));
    res.on('end', () => resolve(Buffer.concat(chunks)));
    res.on('error', reject);
  });
}

function toError(status: number, data: Buffer): AppError {
  try {
    const body = ErrorBody.parse(JSON.parse(data.toString('utf8')));
    return new AppError(body.error.code as ErrorCode, body.error.message);
  } catch {
    return new AppError('internal', `daemon answered HTTP ${status}`);
  }
}
