/**
 * A workflow in words, for the terminal and for a model: one line of summary, then the DAG layer by
 * layer (by depth: a layer's tasks need only tasks of the layers above), each task as
 * `name #id state (duration)` with what it needs on the line below. A list, not ASCII art, so it
 * stays readable in a narrow terminal.
 */
import { durationText } from '../api/format.js';
import type { WorkflowNode, WorkflowView } from '../api/workflows.js';
import { statusText } from './format.js';

const COLOURS: Record<WorkflowNode['state'] | WorkflowView['state'], string> = {
  queued: '2',
  running: '33',
  succeeded: '32',
  failed: '31',
  skipped: '2',
  killed: '31',
};

function paint(text: string, state: keyof typeof COLOURS, colour: boolean): string {
  return colour ? `\x1b[${COLOURS[state]}m${text}\x1b[0m` : text;
}

function nodeDuration(n: WorkflowNode, nowMs: number): string {
  const t = n.task;
  if (!t || !('startedAt' in t) || t.startedAt === undefined) return '';
  const end = 'endedAt' in t ? Date.parse(t.endedAt) : nowMs;
  return ` (${durationText(end - Date.parse(t.startedAt))})`;
}

/** What went wrong, when something did: `exit code 2`, `dependency 3 exited 2`. */
function detail(n: WorkflowNode): string {
  if (!n.task) return ': its task was removed';
  if (n.state === 'failed' || n.state === 'skipped') return `: ${statusText(n.task).replace(/^skipped: /, '')}`;
  return '';
}

export function nodeLine(n: WorkflowNode, nowMs: number, colour = false): string {
  const id = n.task ? `#${n.task.id}` : '#-';
  const attempt = n.attempts > 1 ? ` attempt ${n.attempts}` : '';
  return `${n.name} ${id} ${paint(n.state, n.state, colour)}${detail(n)}${attempt}${nodeDuration(n, nowMs)}`;
}

export function workflowSummary(w: WorkflowView): string {
  const ok = w.nodes.filter((n) => n.state === 'succeeded').length;
  return `${w.name ?? '-'} ${w.state}, ${ok}/${w.nodes.length} succeeded`;
}

export function renderWorkflow(w: WorkflowView, opts: { colour?: boolean; nowMs?: number } = {}): string {
  const colour = opts.colour ?? false;
  const nowMs = opts.nowMs ?? Date.now();
  const ok = w.nodes.filter((n) => n.state === 'succeeded').length;
  const lines = [
    `workflow ${w.id}${w.name ? ` (${w.name})` : ''}: ${paint(w.state, w.state, colour)}, ${ok}/${w.nodes.length} succeeded`,
    ...(w.file ? [`file: ${w.file}`] : []),
  ];
  const layers = Math.max(-1, ...w.nodes.map((n) => n.depth)) + 1;
  for (let d = 0; d < layers; d++) {
    lines.push(`layer ${d}`);
    for (const n of w.nodes.filter((x) => x.depth === d)) {
      lines.push(`  ${nodeLine(n, nowMs, colour)}`);
      if (n.needs.length > 0) lines.push(`    needs${w.needsAny?.includes(n.name) ? ' (any end)' : ''}: ${n.needs.join(', ')}`);
    }
  }
  return lines.join('\n');
}
