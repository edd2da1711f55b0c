/**
 * One health check of an MCP server with the official SDK client: connect (stdio: spawn it),
 * initialize, list its tools, close. Up when both answer within the timeout and faster than
 * `slowMs`; degraded when slow, or when it initializes but cannot list its tools; down otherwise.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { CheckResult } from '../api/monitors.js';
import { now, nowMs } from '../clock.js';
import { VERSION } from '../version.js';
import type { ServerSpec } from './server-spec.js';

export interface CheckOptions {
  timeoutMs: number;
  slowMs: number;
  /** Working directory of a stdio server without its own (Claude Code runs them in the project). */
  cwd: string;
  env: NodeJS.ProcessEnv;
}

/** How long a server that was asked to close may take before its process is killed. */
const CLOSE_GRACE_MS = 300;
const STDERR_KEEP = 400;

const clean = (env: NodeJS.ProcessEnv): Record<string, string> =>
  Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => e[1] !== undefined));

function transportFor(spec: ServerSpec, o: CheckOptions): { transport: Transport; stderr: () => string; pid: () => number | null } {
  if (spec.transport !== 'stdio') {
    const url = new URL(spec.url);
    const requestInit = { headers: spec.headers };
    const transport = spec.transport === 'http' ? new StreamableHTTPClientTransport(url, { requestInit }) : new SSEClientTransport(url, { requestInit });
    return { transport, stderr: () => '', pid: () => null };
  }
  const t = new StdioClientTransport({ command: spec.command, args: spec.args, env: { ...clean(o.env), ...spec.env }, cwd: spec.cwd ?? o.cwd, stderr: 'pipe' });
  let tail = '';
  // Read from the start: a server's complaint on stderr is the best explanation of its failure.
  t.stderr?.on('data', (c: Buffer) => {
    tail = (tail + c.toString('utf8')).slice(-STDERR_KEEP);
  });
  return { transport: t, stderr: () => tail.trim(), pid: () => t.pid };
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

const message = (err: unknown) => (err instanceof Error ? err.message : String(err)).split('\n')[0] ?? '';

export async function checkServer(spec: ServerSpec, o: CheckOptions): Promise<CheckResult> {
  const at = now().toISOString();
  const start = nowMs();
  const { transport, stderr, pid } = transportFor(spec, o);
  const client = new Client({ name: 'nightshift-monitor', version: VERSION });
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), o.timeoutMs);
  const opts = { signal: abort.signal, timeout: o.timeoutMs };
  let initialized = false;
  let spawned: number | null = null;
  try {
    const closed = new Promise<never>((_, reject) => {
      abort.signal.addEventListener('abort', () => reject(new Error(`no answer within ${o.timeoutMs} ms`)), { once: true });
    });
    closed.catch(() => undefined);
    await Promise.race([client.connect(transport, opts), closed]);
    spawned = pid();
    initialized = true;
    const tools = await Promise.race([client.listTools(undefined, opts), closed]);
    const latencyMs = nowMs() - start;
    const slow = latencyMs > o.slowMs;
    return {
      at,
      state: slow ? 'degraded' : 'up',
      latencyMs,
      tools: tools.tools.length,
      ...(slow ? { error: `slow: ${latencyMs} ms (over ${o.slowMs} ms)` } : {}),
    };
  } catch (err) {
    spawned ??= pid();
    const said = stderr();
    const error = `${initialized ? 'initialized, but listing tools failed: ' : ''}${message(err)}${said ? ` (stderr: ${said.split('\n').pop() ?? ''})` : ''}`;
    return { at, state: initialized ? 'degraded' : 'down', latencyMs: initialized ? nowMs() - start : null, error };
  } finally {
    clearTimeout(timer);
    await Promise.race([client.close().catch(() => undefined), new Promise((r) => setTimeout(r, CLOSE_GRACE_MS).unref())]);
    // Only the process this check spawned, by its pid.
    if (spawned !== null && alive(spawned)) process.kill(spawned, 'SIGKILL');
  }
}
