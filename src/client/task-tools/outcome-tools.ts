/**
 * Task outcomes for agents without hooks, so they hear of them as hooked agents do: the tasks that
 * ended since a time or since the cursor of an earlier call, each with its outcome, duration, last
 * lines (ANSI stripped, secrets masked) and the command that reads the rest. The hooks tell a session this by themselves; an
 * agent that has none asks, and passes the answer's cursor back next time to hear only what is new.
 */
import { z } from 'zod';
import { TaskOutcome } from '../../api/injections.js';
import { resolveDir } from '../../project.js';
import { namedTool, type TaskTool } from './define.js';

export interface OutcomeToolNames {
  since?: string;
}

const SinceInput = {
  since: z.string().max(40).optional().describe('an ISO time (2026-01-02T10:00:00Z): tasks that ended after it'),
  cursor: z.string().max(40).optional().describe('the cursor of an earlier answer: only what ended after that answer'),
  project: z.string().optional().describe('only tasks whose directory is inside this project (default: every task)'),
  limit: z.number().int().min(1).max(500).optional().describe('at most this many (default 50), oldest first'),
};

const line = (o: TaskOutcome) => {
  const last = o.lastLines[o.lastLines.length - 1];
  return `task ${o.id} (${o.label}) ${o.outcome}${o.endedAt ? ` at ${o.endedAt}` : ''}${last ? `; last line: ${last}` : ''}; \`${o.read}\``;
};

export function outcomeTools(names: OutcomeToolNames): TaskTool[] {
  return namedTool(names.since, {
    title: 'Tasks ended since',
    description:
      'The background tasks that ended since a time or since the cursor of an earlier call, oldest first: outcome (exit code, signal, timed out, skipped), ' +
      'duration, the last output lines and the command that reads the full output. Pass the answer’s cursor back to hear only what ends later.',
    input: SinceInput,
    output: { tasks: z.array(TaskOutcome), cursor: z.string() },
    brief: (i) => (i.cursor ? `since cursor ${i.cursor}` : i.since ? `since ${i.since}` : 'all ended tasks'),
    run: async (i, host) => {
      const query = {
        ...(i.since !== undefined && { since: i.since }),
        ...(i.cursor !== undefined && { cursor: i.cursor }),
        ...(i.project !== undefined && { project: resolveDir(i.project, host.cwd) }),
        ...(i.limit !== undefined && { limit: i.limit }),
      };
      const r = await host.call((c) => c.call('tasksSince', { query }), true);
      const text = r.tasks.length === 0 ? `no task ended since then; cursor ${r.cursor}` : `${r.tasks.map(line).join('\n')}\ncursor ${r.cursor}`;
      return { text, structured: r };
    },
  });
}
