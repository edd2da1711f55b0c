/** How tasks read in the dashboard: their state, age and command. */
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

/** "3s", "5m", "2h", "4d" since an ISO time. */
export function ago(iso: string, nowMs = Date.now()): string {
  const s = Math.max(0, Math.round((nowMs - Date.parse(iso)) / 1000));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m`;
  if (s < 86400) return `${Math.floor(s / 3600)}h`;
  return `${Math.floor(s / 86400)}d`;
}

export function commandText(t: Task): string {
  return t.command.map((a) => (/^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`)).join(' ');
}

export function bytesText(n: number): string {
  if (n < 1024) return `${n} B`;
  const units = ['KiB', 'MiB', 'GiB', 'TiB'];
  let v = n / 1024;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${v.toFixed(v < 10 ? 1 : 0)} ${units[i]}`;
}

/** A duration: "850 ms", "2.4 s". */
export const seconds = (ms: number): string => (ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`);
