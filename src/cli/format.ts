import type { Task } from '../api/tasks.js';
import { commandLine, humanBytes, statusLabel } from '../client/format.js';

// One clock face for the CLI and the dashboard: api/format.ts.
export { ago } from '../api/format.js';

let columnsOf: ((text: string) => number) | undefined;
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

/**
 * Loads string-width for the commands that print tables; the others start without it (its emoji
 * tables cost ~15 ms of every start-up otherwise).
 */
export async function loadWidths(): Promise<void> {
  columnsOf ??= (await import('string-width')).default;
}

/** Terminal columns of a text: CJK characters and most emoji take two. */
function width(text: string): number {
  if (PRINTABLE_ASCII.test(text)) return text.length;
  if (columnsOf === undefined) throw new Error('loadWidths() must run before a table with non-ASCII text is laid out');
  return columnsOf(text);
}

/**
 * Left-aligned columns; the last column is not padded. Widths are terminal columns, not string
 * lengths (see width).
 */
export function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(width(h), ...rows.map((r) => width(r[i] ?? ''))));
  const pad = (c: string, w: number) => c + ' '.repeat(Math.max(0, w - width(c)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (i === cells.length - 1 ? c : pad(c, widths[i] ?? 0)))
      .join('  ')
      .trimEnd();
  return [line(header), ...rows.map(line)].join('\n');
}

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/** At most `columns` terminal columns of `text`, cut between whole characters (an emoji is never halved). */
export function clipColumns(text: string, columns: number): string {
  if (width(text) <= columns) return text;
  let out = '';
  let used = 0;
  for (const { segment } of graphemes.segment(text)) {
    const w = width(segment);
    if (used + w > columns - 1) break;
    out += segment;
    used += w;
  }
  return `${out}…`;
}

export function describeTask(t: Task): string {
  const rows: [string, string][] = [
    ['id', t.id],
    ['name', t.name ?? '-'],
    ['status', statusLabel(t)],
    ['command', commandLine(t.command)],
    ['cwd', t.cwd],
    ['created', t.createdAt],
  ];
  if (t.schedule) rows.push(['schedule', `${t.schedule.id}${t.schedule.name ? ` (${t.schedule.name})` : ''}`]);
  if ('pid' in t && t.pid !== undefined) rows.push(['pid', String(t.pid)]);
  if ('startedAt' in t && t.startedAt) rows.push(['started', t.startedAt]);
  if ('endedAt' in t) rows.push(['ended', t.endedAt]);
  const o = t.state === 'finished' ? t.outcome : undefined;
  if (o && 'exitCode' in o) rows.push(['exit code', String(o.exitCode)]);
  if (o && 'signal' in o && o.signal) rows.push(['signal', o.signal]);
  if (t.group) rows.push(['group', t.group]);
  if (t.after) rows.push(['after', `${t.after.join(', ')}${t.afterAny ? ' (any outcome)' : ' (all must succeed)'}`]);
  if (t.attempt !== undefined) rows.push(['attempt', `${t.attempt}${t.retries ? ` (${t.retries} more if it fails)` : ''}`]);
  if (t.retryOf !== undefined) rows.push(['retry of', t.retryOf]);
  if (t.retriedBy !== undefined) rows.push(['retried by', t.retriedBy]);
  if (t.restartOf !== undefined) rows.push(['restart of', t.restartOf]);
  if (t.labels)
    rows.push([
      'labels',
      Object.entries(t.labels)
        .map(([k, v]) => `${k}=${v}`)
        .join(' '),
    ]);
  if (t.timeoutSeconds !== undefined) rows.push(['timeout', `${t.timeoutSeconds}s`]);
  if (t.state === 'running' && t.paused) rows.push(['paused', 'yes (resume it with `nightshift resume`)']);
  if (o && 'reason' in o && o.reason) rows.push(['reason', o.reason]);
  if (o && 'error' in o) rows.push(['error', o.error]);
  if (t.saveError) rows.push(['not saved', `${t.saveError} (the daemon saves it again by itself)`]);
  rows.push(['output', `${humanBytes(t.outputBytes)} (${t.outputBytes} bytes) ${t.outputPath}`]);
  rows.push(['stdin', t.stdin]);
  if (t.agent) {
    const a = t.agent;
    rows.push([
      'agent',
      `${a.model} · window ${a.contextWindow} (max output ${a.maxOutputTokens})${a.parent ? ` · sub-agent of ${a.parent}` : ''}${a.resumedFrom ? ` · resumes ${a.resumedFrom}` : ''}`,
    ]);
    if (a.health)
      rows.push([
        'context',
        `${a.health.tokens} tokens, ${Math.round(a.health.utilisation * 100)}% of the input budget (${a.health.zone}) at turn ${a.health.iteration}`,
      ]);
    if (a.compactRequested) rows.push(['compaction', 'requested, at the next turn']);
    if (a.result) rows.push(['result', `${a.result.ok ? 'done' : a.result.code} after ${a.result.turns} turns: ${a.result.message}`]);
  }
  if (t.state === 'running' && t.attention) {
    rows.push(['attention', `${t.attention.kind} since ${t.attention.since}`]);
    rows.push(['last output', t.attention.tail.replace(/\n/g, '\n             ')]);
  }
  return rows.map(([k, v]) => `${`${k}:`.padEnd(12)} ${v}`).join('\n');
}
