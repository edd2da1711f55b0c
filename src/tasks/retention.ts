import type { Task } from '../api/tasks.js';
import { nowMs } from '../clock.js';

const DAY_MS = 24 * 3600 * 1000;

/** Finished tasks whose end lies further back than the retention period. */
export function expired(tasks: Task[], retentionDays: number): string[] {
  const cutoff = nowMs() - retentionDays * DAY_MS;
  const out: string[] = [];
  for (const t of tasks) {
    if (t.state === 'queued' || t.state === 'running') continue;
    if (Date.parse(t.endedAt) < cutoff) out.push(t.id);
  }
  return out;
}
