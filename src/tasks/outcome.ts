import { constants } from 'node:os';
import type { Outcome, Task } from '../api/tasks.js';
import { now, nowMs } from '../clock.js';

const byNumber = new Map<number, string>(Object.entries(constants.signals).map(([name, n]) => [n, name]));

export function signalNumber(name: string): number {
  return (constants.signals as Record<string, number | undefined>)[name] ?? 0;
}

type Ending = Extract<Outcome, { kind: 'exited' | 'killed' }>;

/**
 * Turns the wrapper's recorded status into an outcome. Like a shell, the wrapper reports a command
 * killed by signal N as 128+N, so a status in 129..192 naming a real signal counts as killed.
 */
export function interpretStatus(code: number, capBytes: number): Ending {
  const sig = code > 128 ? byNumber.get(code - 128) : undefined;
  if (!sig) return { kind: 'exited', exitCode: code };
  if (sig === 'SIGXFSZ') {
    return { kind: 'killed', signal: sig, exitCode: code, reason: `output cap of ${capBytes} bytes reached` };
  }
  return { kind: 'killed', signal: sig, exitCode: code };
}

/** The workflow fields a task carries whatever its status (only those it has). */
type WorkflowFields =
  'after' | 'afterAny' | 'group' | 'timeoutSeconds' | 'restartOf' | 'labels' | 'retries' | 'retryDelaySeconds' | 'attempt' | 'retryOf' | 'retriedBy';

export function workflowOf(t: Partial<Pick<Task, WorkflowFields>>) {
  return {
    ...(t.after !== undefined ? { after: t.after } : {}),
    ...(t.afterAny !== undefined ? { afterAny: t.afterAny } : {}),
    ...(t.group !== undefined ? { group: t.group } : {}),
    ...(t.timeoutSeconds !== undefined ? { timeoutSeconds: t.timeoutSeconds } : {}),
    ...(t.restartOf !== undefined ? { restartOf: t.restartOf } : {}),
    ...(t.labels !== undefined ? { labels: t.labels } : {}),
    ...(t.retries !== undefined ? { retries: t.retries } : {}),
    ...(t.retryDelaySeconds !== undefined ? { retryDelaySeconds: t.retryDelaySeconds } : {}),
    ...(t.attempt !== undefined ? { attempt: t.attempt } : {}),
    ...(t.retryOf !== undefined ? { retryOf: t.retryOf } : {}),
    ...(t.retriedBy !== undefined ? { retriedBy: t.retriedBy } : {}),
  };
}

/** Fields shared by every variant; used when a task moves from one status to another. */
export function baseOf(task: Task) {
  return {
    ...workflowOf(task),
    id: task.id,
    name: task.name,
    command: task.command,
    cwd: task.cwd,
    createdAt: task.createdAt,
    stallAfterSeconds: task.stallAfterSeconds,
    stdin: task.stdin,
    outputPath: task.outputPath,
    outputBytes: task.outputBytes,
    ...(task.schedule && { schedule: task.schedule }),
  };
}

/**
 * A running task once it has ended (exit status or a lost verdict known). `endedAt`: when it ended,
 * if that was before now (kept between its start and now).
 */
export function endedTask(task: Extract<Task, { state: 'running' }>, outcome: Outcome, outputBytes: number, endedAt?: Date): Task {
  const at = endedAt === undefined ? nowMs() : Math.min(nowMs(), Math.max(Date.parse(task.startedAt) || 0, endedAt.getTime()));
  const ended = {
    ...baseOf(task),
    outputBytes,
    stdin: task.stdin === 'none' ? ('none' as const) : ('closed' as const),
    pid: task.pid,
    startedAt: task.startedAt,
    endedAt: new Date(at).toISOString(),
  };
  return { ...ended, state: 'finished', outcome };
}

/** A task that ends now without having run (killed or skipped while queued, failed to start, lost before it started). */
export function endedUnrun(task: Task, outcome: Outcome): Task {
  return { ...baseOf(task), state: 'finished', endedAt: now().toISOString(), outcome };
}

/** The reason a timed-out task carries. */
export const timeoutReason = (t: Task): string => `timed out after ${t.timeoutSeconds ?? '?'}s`;
