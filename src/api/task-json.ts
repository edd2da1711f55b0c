/**
 * The task as JSON outside the daemon. Releases before state and outcome wrote and printed a flat
 * `status` (`exited`, `killed`, …) with the outcome's fields (`exitCode`, `signal`, `reason`,
 * `error`) on the task itself; that stays beside `state` and `outcome` in every answer, event and
 * `--json` print (docs/api.md), and tasks.json and its journal in that form are still read.
 * Zod-free: the CLI's fast path prints tasks too.
 */
import type { Outcome } from './task-outcome.js';
import { statusOf, type TaskStatus } from './task-status.js';

const FLAT_OUTCOME_FIELDS = ['exitCode', 'signal', 'reason', 'error'] as const;

type Stated = { state: 'queued' | 'running' } | { state: 'finished'; outcome: Outcome };
/** The flat fields every task printed carries beside `state` and `outcome`. */
export type FlatStatus = { status: TaskStatus; exitCode?: number; signal?: string; reason?: string; error?: string };

/** The task with its flat status (and a finished one's outcome fields) beside its state. */
export function taskJson<T extends Stated>(t: T): T & FlatStatus {
  const { kind: _kind, ...fields } = t.state === 'finished' ? t.outcome : { kind: undefined };
  return { ...t, status: statusOf(t), ...fields };
}

const looksLikeTask = (v: unknown): v is Stated => typeof v === 'object' && v !== null && 'state' in v && 'outputPath' in v && 'command' in v;

/** A JSON.stringify replacer that prints every task in the value with its flat status. */
export function withFlatStatus(_key: string, value: unknown): unknown {
  return looksLikeTask(value) ? taskJson(value) : value;
}

/** A task as an older release wrote it (flat `status`, no `state`), as this one reads it; anything else as it is. */
export function fromFlatStatus(v: unknown): unknown {
  if (typeof v !== 'object' || v === null || 'state' in v || !('status' in v)) return v;
  const { status, ...rest } = v as { status: unknown } & Record<string, unknown>;
  if (status === 'queued' || status === 'running') return { ...rest, state: status };
  const outcome: Record<string, unknown> = { kind: status };
  for (const f of FLAT_OUTCOME_FIELDS) if (rest[f] !== undefined) outcome[f] = rest[f];
  return { ...rest, state: 'finished', outcome };
}
