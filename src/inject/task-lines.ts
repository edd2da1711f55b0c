/** How task outcomes read in what reaches the agent: the session-start section and a prompt's line. */
import { durationText } from '../api/format.js';
import type { TaskOutcome } from '../api/injections.js';
import { escapeControls } from '../api/recall-render.js';

/** "task 12 (npm test) failed: exit 1 after 3m12s" */
function taskHead(o: TaskOutcome): string {
  const after = o.durationMs === null ? '' : ` after ${durationText(o.durationMs)}`;
  return `task ${o.id} (${escapeControls(o.label)}) ${o.outcome}${o.status === 'running' ? '' : after}`;
}

const TASKS_HEADING = '## Tasks here since your last session';

/** The session-start section: each task's outcome, its last lines, and the command that reads it all. */
export function renderTasks(tasks: readonly TaskOutcome[]): string {
  const out = [TASKS_HEADING];
  for (const o of tasks) {
    out.push(`- ${taskHead(o)}; full output: \`${o.read}\``);
    for (const l of o.lastLines) out.push(`    > ${escapeControls(l)}`);
  }
  return out.join('\n');
}

/** The one line a prompt gets for a task: "task 12 (npm test) failed: exit 1 after 3m12s; last line: …; `nightshift output 12`". */
export function renderTaskLine(o: TaskOutcome): string {
  const last = o.lastLines[o.lastLines.length - 1];
  return `nightshift: ${taskHead(o)}${last ? `; last line: ${escapeControls(last)}` : ''}; \`${o.read}\``;
}
