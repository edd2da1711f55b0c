import { z } from 'zod';
import { DreamSchedule } from './dream.js';
import { MonitorCounts } from './monitors.js';
import { TASK_STATUSES, type TaskStatus } from './task-status.js';

const TaskCounts = Object.fromEntries([...TASK_STATUSES, 'attention', 'total'].map((k) => [k, z.number()])) as Record<
  TaskStatus | 'attention' | 'total',
  z.ZodNumber
>;

export const StatusResponse = z.object({
  version: z.string(),
  pid: z.number(),
  uptimeSeconds: z.number(),
  socket: z.string(),
  tcp: z.string().nullable(),
  stateDir: z.string(),
  /** How many tasks have each status (one key per status, derived from the outcome table), need attention, in all. */
  tasks: z.object(TaskCounts),
  memory: z
    .object({
      memories: z.number(),
      episodes: z.number(),
      sessions: z.number(),
      ingesting: z.boolean(),
      extractor: z.string(),
      /** Memories are still being read and indexed after a start (`memories` counts those read so far). */
      loading: z.boolean().optional(),
    })
    .optional(),
  dream: DreamSchedule.partial().extend({ running: z.boolean() }).optional(),
  /** MCP server monitors by state. */
  monitors: MonitorCounts.optional(),
});
export type StatusResponse = z.infer<typeof StatusResponse>;

export const ErrorBody = z.object({ error: z.object({ code: z.string(), message: z.string() }) });

/** `POST /v1/reload`: the config keys that changed, applied now or waiting for a restart of the daemon. */
export const ReloadResponse = z.object({ applied: z.array(z.string()), needsRestart: z.array(z.string()) });
export type ReloadResponse = z.infer<typeof ReloadResponse>;
