/** How tasks read in the dashboard: their state, age and command. */
import { commandLine, humanBytes } from '../../api/format.js';
import type { Task, TaskStatus } from '../../api/tasks.js';

/** Every state a task can be in, as a person reads it (a new state does not compile until named here). */
export const STATE_LABELS: Record<TaskStatus, string> = {
  queued: 'queued',
  running: 'running',
  exited: 'exited',
  killed: 'killed',
  timed_out: 'timed out',
  skipped: 'skipped',
  failed_to_start: 'failed to start',
  lost: 'lost',
};

export function stateText(t: Task): string {
  if (t.status === 'exited') return `exited ${t.exitCode}`;
  if (t.status === 'killed') return `killed (${t.signal})`;
  if (t.status === 'running' && t.paused) return 'paused';
  return STATE_LABELS[t.status];
}

/** A class per kind of state: ok, bad, live, idle. */
export function stateKind(t: Task): string {
  switch (t.status) {
    case 'running':
    case 'queued':
      return 'live';
    case 'exited':
      return t.exitCode === 0 ? 'ok' : 'bad';
    case 'skipped':
      return 'idle';
    case 'killed':
    case 'timed_out':
    case 'failed_to_start':
    case 'lost':
      return 'bad';
  }
}

// Times, sizes and commands read as the CLI prints them (api/format.ts), spaced for the page.
export { ago, elapsed as seconds } from '../../api/format.js';
export const commandText = (t: Task): string => commandLine(t.command);
export const bytesText = (n: number): string => humanBytes(n, true);
