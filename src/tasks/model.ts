import { z } from 'zod';
import { Task, WorkflowFields } from '../api/tasks.js';

/** What the daemon needs to re-find a running task's processes after a restart. */
export const RunInfo = z.object({
  wrapperPid: z.number().int(),
  wrapperStart: z.number(),
  bootId: z.string(),
  childPid: z.number().int().optional(),
  childStart: z.number().optional(),
  capBytes: z.number(),
  killSignal: z.string().optional(),
  /** Set when its deadline (`run --timeout`) passed and it was signalled: its end is `timed_out`. */
  timedOutAt: z.string().optional(),
  /** Paused (`pause`) since then: its deadline waits until it is resumed. */
  pausedAt: z.string().optional(),
  /** Time spent paused before the current pause: the deadline moves by it. */
  pausedMs: z.number().optional(),
});
export type RunInfo = z.infer<typeof RunInfo>;

export const Entry = z.object({ task: Task, run: RunInfo.optional() });
export type Entry = z.infer<typeof Entry>;

export const StateData = z.object({
  version: z.literal(1),
  nextId: z.number().int().min(1),
  tasks: z.array(Entry),
  /** The generation of the journal whose changes come after this snapshot (see StateJournal). */
  journal: z.number().int().min(0).optional(),
});
export type StateData = z.infer<typeof StateData>;

/** Written once per task next to its output: enough to rebuild the state file if it is lost. */
export const TaskMeta = z.object({
  id: z.string(),
  name: z.string().nullable(),
  command: z.array(z.string()),
  cwd: z.string(),
  createdAt: z.string(),
  stallAfterSeconds: z.number(),
  stdin: z.boolean(),
  ...WorkflowFields,
});
export type TaskMeta = z.infer<typeof TaskMeta>;

/** Spec of a queued task that has not started: its environment waits here (0600), deleted at start. */
export const PendingSpawn = z.object({ env: z.record(z.string(), z.string()) });

/**
 * The line a wrapper writes to the task's `wrapper` file when it claims it (pid, start ticks, boot
 * id, output cap in 512-byte blocks), as run info.
 */
export function parseWrapper(text: string): Pick<RunInfo, 'wrapperPid' | 'wrapperStart' | 'bootId' | 'capBytes'> | null {
  const m = /^([0-9]+) ([0-9]+) (\S+) ([0-9]+)\n$/.exec(text);
  return m ? { wrapperPid: Number(m[1]), wrapperStart: Number(m[2]), bootId: m[3] as string, capBytes: Number(m[4]) * 512 } : null;
}
