/** What one endpoint of the route table is, and the helpers the table's groups share. */
import { z } from 'zod';
import type { Route } from './routes.js';
import { DreamId } from './dream.js';
import { GroupName } from './groups.js';
import { MemoryId } from './memory.js';
import { MonitorRef } from './monitors.js';
import { ScheduleRefParam } from './schedules.js';
import { TaskId } from './tasks.js';

/** How a successful answer travels. */
export type Reply =
  /** One JSON document (`status`: the success status when it is not 200). */
  | { kind: 'json'; schema: z.ZodTypeAny; status?: number }
  /** Raw bytes; their metadata as JSON in the `x-nightshift-output` header. */
  | { kind: 'bytes'; meta: z.ZodTypeAny }
  /** Raw bytes as they come, until there are no more. */
  | { kind: 'stream' }
  /** One JSON value per line (NDJSON) as things happen. */
  | { kind: 'ndjson'; schema: z.ZodTypeAny }
  /** Server-sent events (text/event-stream): `schema` is each event's data as JSON. */
  | { kind: 'sse'; schema: z.ZodTypeAny };

/** What the daemon and the full client know of a route beyond its method and path (routes.ts). */
export interface EndpointSpec {
  /** What it does, one line (the README's API table). */
  doc: string;
  /** A validator for each `:name` segment of the route's path. */
  params?: Record<string, z.ZodTypeAny>;
  query?: z.ZodTypeAny;
  body?: z.ZodTypeAny;
  reply: Reply;
}

export type Endpoint = Route & EndpointSpec;

// Described copies: the description names the value in a 400 ("invalid task id: …").
export const taskId = { id: TaskId.describe('task id') };
export const memoryId = { id: MemoryId.describe('memory id') };
export const dreamId = { id: DreamId.describe('dream id') };
export const scheduleRef = { id: ScheduleRefParam.describe('schedule id or name') };
export const monitorRef = { id: MonitorRef.describe('monitor id or name') };
export const groupName = { name: GroupName.describe('group name') };
export const json = <S extends z.ZodTypeAny, N extends number = 200>(schema: S, status?: N) => ({
  kind: 'json' as const,
  schema,
  status: (status ?? 200) as N,
});
