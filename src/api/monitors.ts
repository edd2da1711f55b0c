/** Health monitors of MCP servers: the wire schemas (`nightshift monitor …`, `nightshift monitors`). */
import { z } from 'zod';

export const MonitorState = z.enum(['pending', 'up', 'degraded', 'down']);
export type MonitorState = z.infer<typeof MonitorState>;

/** Where a monitored server's definition is read from, again at every check (its env is never copied). */
export const ServerSource = z.object({
  kind: z.enum(['claude-user', 'claude-local', 'mcp-json', 'codex']),
  file: z.string(),
  /** claude-local: the key under `projects` of ~/.claude.json. */
  project: z.string().optional(),
});
export type ServerSource = z.infer<typeof ServerSource>;

export const CheckResult = z.object({
  at: z.string(),
  state: MonitorState.exclude(['pending']),
  latencyMs: z.number().nullable(),
  tools: z.number().optional(),
  error: z.string().optional(),
});
export type CheckResult = z.infer<typeof CheckResult>;

export const MonitorId = z.string().regex(/^m[0-9a-f]{8}$/, 'a monitor id looks like m1a2b3c4d');

export const Monitor = z.object({
  id: MonitorId,
  name: z.string(),
  /** The server's name in its config file. */
  server: z.string(),
  transport: z.enum(['stdio', 'http', 'sse']),
  source: ServerSource,
  intervalMs: z.number().int().positive(),
  timeoutMs: z.number().int().positive(),
  /** A check slower than this is `degraded`. */
  slowMs: z.number().int().positive(),
  createdAt: z.string(),
  state: MonitorState,
  /** Since when the monitor is in its state. */
  since: z.string(),
  last: CheckResult.optional(),
  /** Median latency of the successful checks of the history. */
  p50Ms: z.number().nullable(),
  history: z.array(CheckResult),
});
export type Monitor = z.infer<typeof Monitor>;

const ms = (max: number) => z.number().int().min(50).max(max);

export const AddMonitorsRequest = z
  .object({
    /** One server by name, or every one found. */
    name: z.string().min(1).max(200).optional(),
    all: z.boolean().optional(),
    /** Absolute: the directory whose `.mcp.json` and ~/.claude.json project entry are read. */
    project: z.string().startsWith('/', 'the project must be an absolute path'),
    intervalMs: ms(86_400_000).optional(),
    timeoutMs: ms(600_000).optional(),
    slowMs: ms(600_000).optional(),
  })
  .refine((r) => (r.name !== undefined) !== (r.all === true), { message: 'give a server name or all, not both' });
export type AddMonitorsRequest = z.infer<typeof AddMonitorsRequest>;

export const AddMonitorsResponse = z.object({
  added: z.array(Monitor),
  /** Already monitored (same server of the same file): kept as they were. */
  existing: z.array(Monitor),
  /** Files read and what was wrong with them (a missing file is not listed). */
  skipped: z.array(z.object({ file: z.string(), reason: z.string() })),
});
export type AddMonitorsResponse = z.infer<typeof AddMonitorsResponse>;

export const MonitorListResponse = z.object({ monitors: z.array(Monitor) });
export const MonitorResponse = z.object({ monitor: Monitor });
/** A monitor's id or its name. */
export const MonitorRef = z.string().min(1).max(200);

export const MonitorCounts = z.object({ up: z.number(), degraded: z.number(), down: z.number(), pending: z.number() });
export type MonitorCounts = z.infer<typeof MonitorCounts>;
