/**
 * Stalls: a running task whose output stopped growing for `stall-after` seconds gets an attention,
 * `prompt` when its last line asks for an answer (or a process of it is blocked reading its stdin),
 * else `silent`; recorded on the task, saved and announced. Growth (or input sent) clears it.
 */
import stripAnsi from 'strip-ansi';
import type { Attention, Task } from '../api/tasks.js';
import { now, nowMs } from '../clock.js';
import { isBlockedReadingStdin, pidsByGroup } from '../sys/proc.js';
import type { TaskContext } from './context.js';
import { outputSize, readRange } from './output.js';

const PROMPTS: RegExp[] = [
  /\[\s*y(es)?\s*\/\s*n(o)?\s*\]/i, // [y/N], [Y/n], [yes/no]
  /\(\s*y(es)?\s*\/\s*n(o)?\s*\)/i, // (y/n), (yes/no)
  /\bpassword\b[^:\n]*:\s*$/i, // Password:, [sudo] password for x:
  /\bpassphrase\b/i, // Enter passphrase for key …
  /\bcontinue\s*\?/i,
  /\bproceed\s*\?/i,
  /\boverwrite\b.*\?/i,
  /\bare you sure\b/i,
  /\bpress (any key|enter|return)\b/i,
];

/** Last line of the output tail, without ANSI codes or carriage-return overwrites. */
export function lastLine(tail: string): { line: string; endsWithNewline: boolean } {
  const clean = stripAnsi(tail);
  const endsWithNewline = /\n\s*$/.test(clean);
  const lines = clean.split('\n').filter((l) => l.trim() !== '');
  const last = lines.at(-1) ?? '';
  const afterCr =
    last
      .split('\r')
      .filter((s) => s.trim() !== '')
      .at(-1) ?? '';
  return { line: afterCr, endsWithNewline };
}

/** True when the output ends in something that asks the user for input. */
export function looksLikePrompt(tail: string): boolean {
  const { line, endsWithNewline } = lastLine(tail);
  if (line === '') return false;
  if (PROMPTS.some((re) => re.test(line))) return true;
  // "Name? " / "Enter value: " left without a newline: the program waits on the same line.
  const raw = stripAnsi(tail);
  return !endsWithNewline && (/[?:] $/.test(raw) || /\?$/.test(raw));
}

export interface WatchedTask {
  id: string;
  outputPath: string;
  stallAfterSeconds: number;
  attention: Attention | undefined;
  /** Process group of the command (its pid), once known. */
  pgid: number | undefined;
}

interface Progress {
  size: number;
  grewAt: number;
  checkedAt: number;
  /** The tail at this size was read and is no prompt; output only grows, so it stays so while the size does. */
  tailNoPrompt?: boolean;
}

interface Change {
  id: string;
  /** The task's progress record when the change was found; a touch since replaces it. */
  seen: Progress;
  attention: Attention | undefined;
}

const TAIL_BYTES = 1024;
const RECHECK_MS = 15_000;

/**
 * Notices tasks whose output stopped growing. After `stallAfterSeconds` of silence it reads the last
 * line: an interactive prompt, or a process of the task blocked in read(2) on its stdin, means
 * `prompt`; otherwise `silent`. Growth (or input sent) clears it.
 */
export class StallMonitor {
  private readonly progress = new Map<string, Progress>();
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly c: TaskContext) {}

  /** Checks the running tasks every `stallCheckSeconds` (again from now when it is reloaded), until `stop`. */
  startChecks(): void {
    clearInterval(this.timer);
    const check = () => this.checkRunning().catch((err: unknown) => this.c.log.warn({ err: (err as Error).message }, 'stall check failed'));
    this.timer = setInterval(() => void check(), this.c.config.stallCheckSeconds * 1000);
    this.timer.unref();
  }

  /** After a reload: a changed interval applies from now on. */
  restartChecks(): void {
    if (this.timer) this.startChecks();
  }

  stop(): void {
    clearInterval(this.timer);
  }

  /** Output grew or input was sent: start the silence clock again. */
  touch(id: string, size?: number): void {
    const p = this.progress.get(id);
    const t = nowMs();
    this.progress.set(id, { size: size ?? p?.size ?? 0, grewAt: t, checkedAt: 0 });
  }

  forget(id: string): void {
    this.progress.delete(id);
  }

  /**
   * One pass over the running tasks. Changes are recorded together once the pass is done: each is
   * saved, and saves made in one go share one write of the state file, where changes reported
   * between the pass's reads would cost a full write each. A change is dropped if the task was
   * touched (or forgotten) meanwhile.
   */
  private async check(tasks: WatchedTask[]): Promise<void> {
    const changes: Change[] = [];
    await this.scan(tasks, changes);
    for (const { id, seen, attention } of changes) {
      if (this.progress.get(id) === seen) this.c.background(this.setAttention(id, attention), id, 'saving attention failed');
    }
  }

  private checking = false;

  /** `check` over the running tasks of the registry; a pass still running makes the next one a no-op. */
  async checkRunning(): Promise<void> {
    if (this.checking) return;
    this.checking = true;
    try {
      const watched = this.c.registry.list().flatMap(({ task, run }) =>
        // A paused task is silent because it was stopped: not a stall.
        task.state === 'running' && !task.paused
          ? [{ id: task.id, outputPath: task.outputPath, stallAfterSeconds: task.stallAfterSeconds, attention: task.attention, pgid: run?.childPid }]
          : [],
      );
      await this.check(watched);
    } finally {
      this.checking = false;
    }
  }

  /** Records the attention on a running task, saves it and announces it. */
  private async setAttention(id: string, attention: Attention | undefined): Promise<void> {
    const e = this.c.registry.get(id);
    if (!e || e.task.state !== 'running') return;
    const { attention: _old, ...rest } = e.task;
    const task: Task = attention ? { ...rest, attention } : rest;
    this.c.registry.set(task, e.run);
    if (attention) {
      this.c.log.info({ task: id, kind: attention.kind }, 'task needs attention');
      this.c.events.emit('attention', task);
    }
    // A failed save is retried by the registry and marked on the task (see TaskRegistry.commit).
    await this.c.persist();
  }

  private async scan(tasks: WatchedTask[], changes: Change[]): Promise<void> {
    const t = nowMs();
    const due: WatchedTask[] = [];
    for (const task of tasks) {
      const size = await outputSize(task.outputPath);
      const p = this.progress.get(task.id);
      if (!p || size !== p.size) {
        const fresh = { size, grewAt: t, checkedAt: 0 };
        this.progress.set(task.id, fresh);
        if (p && task.attention) changes.push({ id: task.id, seen: fresh, attention: undefined });
        continue;
      }
      if (t - p.grewAt < task.stallAfterSeconds * 1000) continue;
      // A prompt is the attention that matters; keep looking for one while the task is only silent.
      if (task.attention?.kind === 'prompt' || t - p.checkedAt < RECHECK_MS) continue;
      p.checkedAt = t;
      due.push(task);
    }
    if (due.length === 0) return;
    const groups = new Set(due.map((d) => d.pgid).filter((g): g is number => g !== undefined));
    const members = pidsByGroup(groups);
    for (const task of due) {
      const p = this.progress.get(task.id);
      if (!p) continue;
      const readingStdin = (members.get(task.pgid ?? -1) ?? []).some(isBlockedReadingStdin);
      // Re-checking a silent task: only its stdin can have changed, not its tail (same size).
      if (!readingStdin && p.tailNoPrompt && task.attention?.kind === 'silent') continue;
      const { data } = await readRange(task.outputPath, Math.max(0, p.size - TAIL_BYTES), TAIL_BYTES);
      const tail = data.toString('utf8');
      const prompt = looksLikePrompt(tail);
      if (!prompt) p.tailNoPrompt = true;
      const kind = prompt || readingStdin ? 'prompt' : 'silent';
      if (task.attention?.kind === kind) continue;
      const since = new Date(p.grewAt + task.stallAfterSeconds * 1000);
      changes.push({ id: task.id, seen: p, attention: { kind, since: (since > now() ? now() : since).toISOString(), tail: lastLines(tail) } });
    }
  }
}

function lastLines(tail: string): string {
  return stripAnsi(tail).split('\n').slice(-5).join('\n').slice(-500);
}
