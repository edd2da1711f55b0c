/**
 * The daemon's side of the spawner (script.ts): starts it, hands it task directories in batches
 * (every start asked for in one turn of the event loop is one write), reads the wrappers' reports,
 * and restarts it when it dies. Starts it had been sent but not answered are sent again to the new
 * one; a wrapper that finds its task already claimed answers `duplicate`, so none starts twice.
 * Reports keep coming from the pipes of earlier spawners (their wrappers hold them) until they close.
 */
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import type { Logger } from '../../log.js';
import { LineSplitter, parseReport, type Report } from './report.js';
import { SPAWNER_SCRIPT } from './script.js';
import { tools } from './tools.js';

/** After a death, the next start waits this long, doubling up to the maximum while it keeps dying. */
const RESTART_FIRST_MS = 10;
const RESTART_MAX_MS = 2000;

type Child = ChildProcessByStdio<Writable, Readable, Readable>;

/** Where the wrappers' reports go (the task runner). */
export interface ReportSink {
  onReport(r: Report): void;
}

export class Spawner {
  private child: Child | null = null;
  /** Directories sent and not yet answered (started, failed or duplicate), in the order sent. */
  private readonly unanswered = new Set<string>();
  private outbox: string[] = [];
  private flushing = false;
  private stopped = false;
  private restarts = 0;
  private restartTimer: NodeJS.Timeout | undefined;
  /** Spawners started so far (a test and `status` can see a restart). */
  generation = 0;

  constructor(
    private readonly sink: ReportSink,
    private readonly log: Logger,
  ) {}

  /** The pid of the running spawner, if one runs. */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** Asks for the task in `dir` to be started (its `start` file written); answered through `onReport`. */
  start(dir: string): void {
    this.unanswered.add(dir);
    this.outbox.push(dir);
    if (!this.flushing) {
      this.flushing = true;
      setImmediate(() => this.flush());
    }
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.restartTimer);
    this.child?.stdin.end();
    this.child = null;
  }

  private flush(): void {
    this.flushing = false;
    if (this.outbox.length === 0 || this.stopped) return;
    const child = this.child ?? this.launch();
    if (!child) return; // a restart is due: it sends every unanswered start
    const lines = this.outbox.join('\n') + '\n';
    this.outbox = [];
    child.stdin.write(lines);
  }

  private launch(): Child | null {
    let child: Child;
    try {
      child = spawn('/bin/sh', ['-c', SPAWNER_SCRIPT, 'nightshift-spawner', tools.setsid, tools.mkfifo], {
        cwd: '/',
        env: {},
        detached: true,
        stdio: ['pipe', 'pipe', 'pipe'],
      });
    } catch (err) {
      this.log.error({ err: (err as Error).message }, 'could not start the task spawner');
      this.scheduleRestart();
      return null;
    }
    this.child = child;
    this.generation += 1;
    const lines = new LineSplitter();
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => lines.push(chunk, (line) => this.report(line)));
    const errors = new LineSplitter();
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => errors.push(chunk, (line) => this.log.warn({ spawner: child.pid, line }, 'task spawner')));
    // Its stdin closing early (it died) is seen as its exit; the write error itself says nothing more.
    child.stdin.on('error', () => undefined);
    child.once('error', (err) => this.log.error({ err: err.message }, 'task spawner failed'));
    child.once('exit', (code, signal) => this.died(child, code, signal));
    child.unref();
    this.log.debug({ pid: child.pid, generation: this.generation }, 'task spawner started');
    return child;
  }

  private report(line: string): void {
    // Stopped (shutdown): a task's end reported now is the next start's to settle, from its files.
    if (this.stopped) return;
    const r = parseReport(line);
    if (!r) {
      this.log.warn({ line }, 'unreadable line from the task spawner');
      return;
    }
    if (r.kind !== 'exited') this.unanswered.delete(r.dir);
    this.restarts = 0;
    this.sink.onReport(r);
  }

  private died(child: Child, code: number | null, signal: NodeJS.Signals | null): void {
    if (this.child !== child) return;
    this.child = null;
    if (this.stopped) return;
    this.log.warn({ pid: child.pid, code, signal, unanswered: this.unanswered.size }, 'the task spawner ended; starting another');
    this.scheduleRestart();
  }

  private scheduleRestart(): void {
    const delay = Math.min(RESTART_MAX_MS, RESTART_FIRST_MS * 2 ** this.restarts);
    this.restarts += 1;
    clearTimeout(this.restartTimer);
    this.restartTimer = setTimeout(() => {
      if (this.stopped) return;
      // Every start not answered yet, the ones it had been sent included; a claimed one answers duplicate.
      this.outbox = [...this.unanswered];
      if (this.outbox.length === 0) return;
      const child = this.launch();
      if (child) this.flush();
    }, delay);
    this.restartTimer.unref();
  }
}
