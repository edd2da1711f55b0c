/**
 * What a task's state and outcome mean to a caller, in one table. Zod-free, so the CLI's fast path
 * can use it (api/tasks.ts re-exports it); the outcome kinds come from the schema as a type only.
 */
import type { Outcome } from './task-outcome.js';

export type OutcomeKind = Outcome['kind'];
export type TaskState = 'queued' | 'running' | 'finished';
/** The flat status older releases printed and filtered by: the state, or a finished task's outcome. */
export type TaskStatus = Exclude<TaskState, 'finished'> | OutcomeKind;
/** How a display colours an ending. */
export type Tone = 'ok' | 'bad' | 'idle';

interface OutcomeRow<O> {
  /** The outcome as a word, for filters: `timed out`. */
  name: string;
  /** `wait`'s exit code, as a shell would report it. */
  exitCode: (o: O) => number;
  /** A word or two for tables: `exited 3`. */
  label: (o: O) => string;
  /** A phrase for sentences: `exit code 3`. */
  text: (o: O) => string;
  /** How it ended, after the task's name: `exited 3`, `was killed by SIGTERM`. */
  how: (o: O) => string;
  /** What an agent is told of a task that ended so (session start, prompt): `succeeded`, `failed: exit 3`. */
  told: (o: O) => string;
  tone: (o: O) => Tone;
}

/** `wait`'s exit code for a task its deadline (`run --timeout`) ended. 124 is taken by `wait --timeout`. */
export const TIMED_OUT_EXIT = 123;
/** `wait`'s exit code for a task that never ran because a dependency did not succeed. */
export const SKIPPED_EXIT = 125;

/** Every outcome, with all a caller needs of it: a new one does not compile until it has its row. */
export const OUTCOMES: { [K in OutcomeKind]: OutcomeRow<Extract<Outcome, { kind: K }>> } = {
  exited: {
    name: 'exited',
    exitCode: (o) => o.exitCode,
    label: (o) => `exited ${o.exitCode}`,
    text: (o) => `exit code ${o.exitCode}`,
    how: (o) => `exited ${o.exitCode}`,
    told: (o) => (o.exitCode === 0 ? 'succeeded' : `failed: exit ${o.exitCode}`),
    tone: (o) => (o.exitCode === 0 ? 'ok' : 'bad'),
  },
  killed: {
    name: 'killed',
    exitCode: (o) => o.exitCode,
    label: (o) => `killed ${o.signal}`,
    text: (o) => `killed by ${o.signal}${o.reason ? ` (${o.reason})` : ''}`,
    how: (o) => `was killed by ${o.signal}`,
    told: (o) => `killed by ${o.signal}${o.reason ? ` (${o.reason})` : ''}`,
    tone: () => 'bad',
  },
  timed_out: {
    name: 'timed out',
    exitCode: () => TIMED_OUT_EXIT,
    label: () => 'timed out',
    text: (o) => o.reason,
    how: () => 'timed out',
    told: (o) => o.reason,
    tone: () => 'bad',
  },
  skipped: {
    name: 'skipped',
    exitCode: () => SKIPPED_EXIT,
    label: () => 'skipped',
    text: (o) => `skipped: ${o.reason}`,
    how: () => 'was skipped',
    told: (o) => `skipped: ${o.reason}`,
    tone: () => 'idle',
  },
  failed_to_start: {
    name: 'failed to start',
    exitCode: () => 127,
    label: () => 'failed to start',
    text: (o) => `failed to start: ${o.error}`,
    how: () => 'failed to start',
    told: (o) => `failed to start: ${o.error}`,
    tone: () => 'bad',
  },
  lost: {
    name: 'lost',
    exitCode: () => 255,
    label: () => 'lost',
    text: (o) => `lost: ${o.reason}`,
    how: () => 'was lost',
    told: (o) => `lost: ${o.reason}`,
    tone: () => 'bad',
  },
};

/** One outcome's row, typed for that outcome. */
function row<K extends OutcomeKind>(o: Extract<Outcome, { kind: K }>): OutcomeRow<Extract<Outcome, { kind: K }>> {
  return OUTCOMES[o.kind as K] as OutcomeRow<Extract<Outcome, { kind: K }>>;
}
export const outcomeExitCode = (o: Outcome): number => row(o).exitCode(o);
export const outcomeLabel = (o: Outcome): string => row(o).label(o);
export const outcomeText = (o: Outcome): string => row(o).text(o);
export const outcomeHow = (o: Outcome): string => row(o).how(o);
export const outcomeTold = (o: Outcome): string => row(o).told(o);
export const outcomeTone = (o: Outcome): Tone => row(o).tone(o);

export const OUTCOME_KINDS = Object.keys(OUTCOMES) as OutcomeKind[];
export const TASK_STATES: readonly TaskState[] = ['queued', 'running', 'finished'];
/** The statuses `ps --status` and the API's `status` filter take (`finished`: any outcome). */
export const TASK_STATUSES = ['queued', 'running', ...OUTCOME_KINDS] as [TaskStatus, ...TaskStatus[]];
export const STATUS_FILTERS = [...TASK_STATUSES, 'finished'] as [TaskStatus | 'finished', ...(TaskStatus | 'finished')[]];
export const FINISHED: ReadonlySet<TaskStatus> = new Set(OUTCOME_KINDS);
/** Every flat status as a word, for filters. */
export const STATUS_NAMES = Object.fromEntries([['queued', 'queued'], ['running', 'running'], ...OUTCOME_KINDS.map((k) => [k, OUTCOMES[k].name])]) as Record<
  TaskStatus,
  string
>;

/** The least of a task these need: its state and, once finished, its outcome. */
type Stated = { state: 'queued' | 'running' } | { state: 'finished'; outcome: Outcome };
type Shown = { state: 'queued' } | { state: 'running'; paused?: boolean; attention?: { kind: 'prompt' | 'silent' } } | { state: 'finished'; outcome: Outcome };

export const isFinished = (t: { state: TaskState }): boolean => t.state === 'finished';
export const statusOf = (t: Stated): TaskStatus => (t.state === 'finished' ? t.outcome.kind : t.state);

/** Exit code a shell would report (128+signal when killed); null while it has not finished. */
export function shellExitCode(t: Stated): number | null {
  return t.state === 'finished' ? outcomeExitCode(t.outcome) : null;
}

/** A task's status in a word or two, for tables (CLI and dashboard): `exited 3`, `running (prompt)`. */
export function statusLabel(t: Shown): string {
  switch (t.state) {
    case 'queued':
      return 'queued';
    case 'running':
      return t.paused ? 'running (paused)' : t.attention ? `running (${t.attention.kind})` : 'running';
    case 'finished':
      return outcomeLabel(t.outcome);
  }
}

/** A task's status as a phrase, for sentences: `exit code 3`, `killed by SIGTERM`, `running, waiting at a prompt`. */
export function statusText(t: Shown): string {
  switch (t.state) {
    case 'queued':
      return 'queued';
    case 'running':
      if (t.paused) return 'running, paused';
      return t.attention ? `running, ${t.attention.kind === 'prompt' ? 'waiting at a prompt' : 'silent'}` : 'running';
    case 'finished':
      return outcomeText(t.outcome);
  }
}

/** How a display colours a task: live while queued or running, else its outcome's tone. */
export const statusTone = (t: Stated): Tone | 'live' => (t.state === 'finished' ? outcomeTone(t.outcome) : 'live');

/** A finished task's outcome when it ended this way, else undefined: `endedAs(t, 'failed_to_start')?.error`. */
export function endedAs<K extends OutcomeKind>(t: Stated, kind: K): Extract<Outcome, { kind: K }> | undefined {
  return t.state === 'finished' && t.outcome.kind === kind ? (t.outcome as Extract<Outcome, { kind: K }>) : undefined;
}
