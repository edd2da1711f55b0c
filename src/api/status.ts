import { z } from 'zod';
import { DreamSchedule } from './dream.js';
import { MonitorCounts } from './monitors.js';

export const StatusResponse = z.object({
  version: z.string(),
  pid: z.number(),
  uptimeSeconds: z.number(),
  socket: z.string(),
  tcp: z.string().nullable(),
  stateDir: z.string(),
  tasks: z.object({
    queued: z.number(),
    running: z.number(),
    attention: z.number(),
    exited: z.number(),
    killed: z.number(),
    timed_out: z.number(),
    skipped: z.number(),
    failed_to_start: z.number(),
    lost: z.number(),
    total: z.number(),
  }),
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
