/**
 * Task outcomes as an agent is told of them: which tasks belong to a project and a session, which
 * ended since a time, and each one's outcome (worded by the outcome table's `told` column), duration
 * and last lines (the tail of output.log through the tasks' own reader, never the whole file; ANSI
 * stripped; secrets masked).
 */
import { sep } from 'node:path';
import stripAnsi from 'strip-ansi';
import type { TaskOutcome } from '../api/injections.js';
import { endedAs, isFinished, statusOf, type Task } from '../api/tasks.js';
import { outcomeTold } from '../api/task-status.js';
import { projectKey } from '../project.js';
import { redact } from '../redact/redact.js';
import { readTail, type Chunk } from '../tasks/output.js';

/** At most this many tasks in a session-start block. */
export const START_TASKS_MAX = 5;
/** The end of the output read for its last lines: a line longer than this shows its end. */
const TAIL_BYTES = 4096;
const LINE_MAX = 200;

/** The task ran in the project (its cwd is inside it), or carries this session's label (`--label session=ID`). */
export function belongs(t: Task, project: string | null, sessionId?: string): boolean {
  if (sessionId !== undefined && t.labels?.session === sessionId) return true;
  if (project === null) return false;
  if (t.cwd === project || t.cwd.startsWith(project.endsWith(sep) ? project : project + sep)) return projectKey(t.cwd) === project;
  return false;
}

export function endedAt(t: Task): string | undefined {
  return isFinished(t) && 'endedAt' in t ? t.endedAt : undefined;
}

export function failed(t: Task): boolean {
  return endedAs(t, 'exited')?.exitCode !== 0;
}

/** The ended tasks of a session start: ended after `since`, not told before; failed ones first, then newest; at most five. */
export function pickForStart(tasks: readonly Task[], project: string, since: string, told: ReadonlySet<string>, sessionId?: string): Task[] {
  return tasks
    .filter((t) => {
      const at = endedAt(t);
      return at !== undefined && at > since && !told.has(t.id) && belongs(t, project, sessionId);
    })
    .sort((a, b) => Number(failed(b)) - Number(failed(a)) || (endedAt(b) ?? '').localeCompare(endedAt(a) ?? ''))
    .slice(0, START_TASKS_MAX);
}

/** The key a told task is remembered by: its id once ended, its id and prompt time while it waits at a prompt. */
export function toldKey(t: Task): string {
  return t.state === 'running' && t.attention?.kind === 'prompt' ? `${t.id}@${t.attention.since}` : t.id;
}

/** What a prompt is told: tasks of the project or session that ended after `since`, or wait at a prompt, not told before. */
export function pickForPrompt(tasks: readonly Task[], project: string | null, sessionId: string, since: string, told: ReadonlySet<string>): Task[] {
  return tasks.filter((t) => {
    if (told.has(toldKey(t)) || !belongs(t, project, sessionId)) return false;
    if (t.state === 'running') return t.attention?.kind === 'prompt';
    const at = endedAt(t);
    return at !== undefined && at > since;
  });
}

/** The output's last `n` lines as a person would read them: ANSI stripped, a carriage return's overwrite applied, secrets masked. */
export async function lastLines(path: string, n = 3): Promise<string[]> {
  let tail: Chunk;
  try {
    tail = await readTail(path, TAIL_BYTES);
  } catch {
    // An output that cannot be read has no lines to show; the outcome is told all the same.
    return [];
  }
  let lines = stripAnsi(tail.data.toString('utf8'))
    .split('\n')
    .map((l) =>
      (
        l
          .split('\r')
          .filter((p) => p.trim() !== '')
          .pop() ?? ''
      ).trimEnd(),
    );
  // Masked as one text, so a secret broken across lines is masked in both halves; the first line,
  // cut mid-line, is context for that and never shown.
  lines = redact(lines.join('\n')).text.split('\n');
  if (tail.offset > 0) lines = lines.slice(1);
  return lines
    .filter((l) => l.trim() !== '')
    .slice(-n)
    .map((l) => (l.length > LINE_MAX ? `…${l.slice(-LINE_MAX)}` : l));
}

function outcomeText(t: Task): string {
  switch (t.state) {
    case 'queued':
      return 'queued';
    case 'running':
      return t.attention?.kind === 'prompt' ? 'is waiting at a prompt' : 'running';
    case 'finished':
      return outcomeTold(t.outcome);
  }
}

function durationOf(t: Task): number | null {
  const start = 'startedAt' in t ? t.startedAt : undefined;
  const end = endedAt(t);
  if (start === undefined || end === undefined) return null;
  return Math.max(0, Date.parse(end) - Date.parse(start));
}

const clipLabel = (label: string): string => (label.length > 80 ? `${label.slice(0, 79)}…` : label);

export async function outcomeOf(t: Task): Promise<TaskOutcome> {
  const label = t.name ?? t.command.join(' ');
  const waiting = t.state === 'running' && t.attention?.kind === 'prompt';
  return {
    id: t.id,
    // Masked before it is cut: a cut secret may no longer look like one.
    label: clipLabel(redact(label).text),
    cwd: t.cwd,
    status: statusOf(t),
    outcome: outcomeText(t),
    failed: waiting || failed(t),
    durationMs: durationOf(t),
    endedAt: endedAt(t) ?? null,
    lastLines: waiting && t.attention ? [redact(stripAnsi(t.attention.tail).trim()).text.split('\n').pop() ?? ''] : await lastLines(t.outputPath),
    read: waiting ? `nightshift send ${t.id} TEXT` : `nightshift output ${t.id}`,
  };
}
