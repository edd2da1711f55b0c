import { readFile, rm, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Attention, RunRequest, SignalName, Task } from '../api/tasks.js';
import { isFinished } from '../api/tasks.js';
import { now, nowMs } from '../clock.js';
import type { Config } from '../config.js';
import { AppError, isErrno } from '../errors.js';
import type { Logger } from '../log.js';
import type { Paths } from '../paths.js';
import { judge, readExitCode } from './adopt.js';
import type { TaskEvents } from './events.js';
import { PendingSpawn, type Entry, type RunInfo, type TaskMeta } from './model.js';
import { baseOf, interpretStatus, signalNumber } from './outcome.js';
import { outputSize } from './output.js';
import { bootId, readStat } from '../sys/proc.js';
import type { TaskRegistry } from './registry.js';
import { preflight, spawnTask, toArgv } from './spawn.js';
import { StallMonitor } from './stall-monitor.js';
import { writeStdin } from './stdin.js';
import { claimTaskDir } from './task-dir.js';
import { waitForEnd } from './wait.js';

export interface ManagerDeps {
  paths: Paths;
  config: Config;
  log: Logger;
  registry: TaskRegistry;
  events: TaskEvents;
}

const ADOPTED_POLL_MS = 1000;

/** See `TaskManager.run`. */
export type PrepareTask = (task: { id: string; dir: string }) => Promise<{ command?: string[] }>;

/** Owns the task lifecycle: queue, start, exit, kill, stdin, stalls, re-adoption after a restart. */
export class TaskManager {
  /** Running tasks whose wrapper is not our child (adopted after a restart): polled for their exit. */
  private readonly adopted = new Set<string>();
  private readonly stall: StallMonitor;
  private readonly timers: NodeJS.Timeout[] = [];

  constructor(private readonly d: ManagerDeps) {
    this.stall = new StallMonitor((id, attention) => this.setAttention(id, attention));
  }

  dir(id: string): string {
    return join(this.d.paths.tasksDir, id);
  }

  // ---- queries -------------------------------------------------------------------------------

  async get(id: string): Promise<Task> {
    return this.live(this.entry(id).task);
  }

  async list(all: boolean): Promise<Task[]> {
    const tasks = this.d.registry
      .list()
      .map((e) => e.task)
      .filter((t) => all || !isFinished(t));
    return Promise.all(tasks.map((t) => this.live(t)));
  }

  counts(): Record<Task['status'] | 'attention', number> {
    const c = { queued: 0, running: 0, attention: 0, exited: 0, killed: 0, failed_to_start: 0, lost: 0 };
    for (const { task } of this.d.registry.list()) {
      c[task.status] += 1;
      if (task.status === 'running' && task.attention) c.attention += 1;
    }
    return c;
  }

  private entry(id: string): Entry {
    const e = this.d.registry.get(id);
    if (!e) throw new AppError('not_found', `no task ${id} (see \`nightshift ps --all\`)`);
    return e;
  }

  /** A running task's size is read from disk at the moment of asking. */
  private async live(task: Task): Promise<Task> {
    if (task.status !== 'running') return task;
    return { ...task, outputBytes: await outputSize(task.outputPath) };
  }

  // ---- run -----------------------------------------------------------------------------------

  /**
   * `prepare` runs once the task has its id and directory, before it is queued or started: an agent
   * task writes its spec there and names it in the command it returns. If it throws, the directory
   * is removed and nothing was started.
   */
  async run(req: RunRequest, prepare?: PrepareTask): Promise<Task> {
    const env = { ...(req.env ?? {}) };
    preflight(toArgv(req.command), req.cwd, env);
    const { id, dir } = claimTaskDir(this.d.registry, this.d.paths.tasksDir, this.d.log);
    let command = req.command;
    if (prepare) {
      try {
        command = (await prepare({ id, dir })).command ?? command;
      } catch (err) {
        await rm(dir, { recursive: true, force: true });
        throw err;
      }
    }
    const meta: TaskMeta = {
      id,
      name: req.name ?? null,
      command,
      cwd: req.cwd,
      createdAt: now().toISOString(),
      stallAfterSeconds: req.stallAfterSeconds ?? this.d.config.stallAfterSeconds,
      stdin: req.stdin,
    };
    await writeFile(join(dir, 'meta.json'), JSON.stringify(meta), { mode: 0o600 });
    const task: Task = {
      ...meta,
      stdin: req.stdin ? 'open' : 'none',
      outputPath: join(dir, 'output.log'),
      outputBytes: 0,
      status: 'queued',
    };
    if (this.counts().running < this.d.config.maxParallel) {
      this.start(task, env);
    } else {
      await writeFile(join(dir, 'spawn.json'), JSON.stringify({ env }), { mode: 0o600 });
      this.d.registry.set(task);
      this.d.events.emit('queued', task);
    }
    await this.d.registry.commit();
    return this.get(id);
  }

  private start(task: Task, env: Record<string, string>): void {
    const dir = this.dir(task.id);
    let spawned;
    try {
      spawned = spawnTask({
        dir,
        outputPath: task.outputPath,
        command: task.command,
        cwd: task.cwd,
        env,
        stdin: task.stdin === 'open',
        capBytes: this.d.config.outputCapBytes,
      });
    } catch (err) {
      const failed: Task = { ...baseOf(task), status: 'failed_to_start', endedAt: now().toISOString(), error: (err as Error).message };
      this.d.registry.set(failed);
      this.d.log.warn({ task: task.id, err: (err as Error).message }, 'task failed to start');
      this.d.events.emit('exited', failed);
      return;
    }
    const pid = spawned.wrapperPid;
    const run: RunInfo = { wrapperPid: pid, wrapperStart: readStat(pid)?.startTicks ?? 0, bootId: bootId(), capBytes: this.d.config.outputCapBytes };
    const running: Task = { ...baseOf(task), status: 'running', pid, startedAt: now().toISOString() };
    this.d.registry.set(running, run);
    void writeFile(join(dir, 'run.json'), JSON.stringify({ ...run, startedAt: running.startedAt }), { mode: 0o600 });
    void unlink(join(dir, 'spawn.json')).catch(() => undefined);
    this.stall.touch(task.id, 0);
    void spawned.exited.then(() => this.onWrapperExit(task.id));
    void this.resolveChild(task.id);
    this.d.log.info({ task: task.id, pid }, 'task started');
    this.d.events.emit('started', running);
  }

  /** The command's pid (its process group) is written by the wrapper a moment after it starts. */
  private async resolveChild(id: string): Promise<number | undefined> {
    const deadline = nowMs() + 3000;
    for (;;) {
      const e = this.d.registry.get(id);
      if (!e || e.task.status !== 'running' || !e.run) return undefined;
      if (e.run.childPid !== undefined) return e.run.childPid;
      const text = await readFile(join(this.dir(id), 'child.pid'), 'utf8').catch(() => '');
      // A short task may have ended (and been settled) during that read: never write its old state back.
      const cur = this.d.registry.get(id);
      if (!cur || cur.task.status !== 'running' || !cur.run) return undefined;
      if (/^[0-9]+\s*$/.test(text)) {
        const childPid = Number(text);
        const childStart = readStat(childPid)?.startTicks;
        const run: RunInfo = { ...cur.run, childPid, ...(childStart !== undefined ? { childStart } : {}) };
        this.d.registry.set({ ...cur.task, pid: childPid }, run);
        void writeFile(join(this.dir(id), 'run.json'), JSON.stringify({ ...run, startedAt: cur.task.startedAt }), { mode: 0o600 });
        void this.d.registry.commit();
        return childPid;
      }
      if (nowMs() > deadline) return undefined;
      await sleep(5);
    }
  }

  private async onWrapperExit(id: string): Promise<void> {
    const code = await readExitCode(this.dir(id));
    if (code === null) await this.settleLost(id, 'the task wrapper ended without recording an exit status');
    else await this.settle(id, code);
  }

  private async settle(id: string, code: number): Promise<void> {
    const e = this.d.registry.get(id);
    if (!e || e.task.status !== 'running' || !e.run) return;
    const ending = interpretStatus(code, e.run.capBytes);
    const ended = { ...baseOf(e.task), outputBytes: await outputSize(e.task.outputPath), stdin: closedStdin(e.task), pid: e.task.pid, startedAt: e.task.startedAt, endedAt: now().toISOString() };
    const task: Task = ending.status === 'exited' ? { ...ended, ...ending } : { ...ended, ...ending };
    await this.finish(task);
  }

  private async settleLost(id: string, reason: string): Promise<void> {
    const e = this.d.registry.get(id);
    if (!e || e.task.status !== 'running') return;
    const task: Task = { ...baseOf(e.task), outputBytes: await outputSize(e.task.outputPath), stdin: closedStdin(e.task), status: 'lost', pid: e.task.pid, startedAt: e.task.startedAt, endedAt: now().toISOString(), reason };
    await this.finish(task);
  }

  private async finish(task: Task): Promise<void> {
    this.d.registry.set(task);
    this.adopted.delete(task.id);
    this.stall.forget(task.id);
    await this.d.registry.commit();
    this.d.log.info({ task: task.id, status: task.status }, 'task ended');
    this.d.events.emit('exited', task);
    await this.schedule();
  }

  /** Starts queued tasks, oldest first, while there is room. */
  private async schedule(): Promise<void> {
    const queued = this.d.registry.list().filter((e) => e.task.status === 'queued').sort((a, b) => Number(a.task.id) - Number(b.task.id));
    let started = false;
    for (const { task } of queued) {
      if (this.counts().running >= this.d.config.maxParallel) break;
      const raw = await readFile(join(this.dir(task.id), 'spawn.json'), 'utf8').catch(() => null);
      // It may have been killed (or started by a concurrent pass) while the spec was read.
      if (this.d.registry.get(task.id)?.task.status !== 'queued') continue;
      const spec = raw === null ? null : PendingSpawn.safeParse(safeJson(raw));
      if (!spec?.success) {
        const failed: Task = { ...baseOf(task), status: 'failed_to_start', endedAt: now().toISOString(), error: 'its saved start spec is missing or unreadable' };
        this.d.registry.set(failed);
        this.d.events.emit('exited', failed);
      } else {
        this.start(task, spec.data.env);
      }
      started = true;
    }
    if (started) await this.d.registry.commit();
  }

  // ---- control -------------------------------------------------------------------------------

  async kill(id: string, signal: SignalName): Promise<Task> {
    const e = this.entry(id);
    const t = e.task;
    if (t.status === 'queued') {
      const killed: Task = { ...baseOf(t), status: 'killed', signal, exitCode: 128 + signalNumber(signal), endedAt: now().toISOString(), reason: 'killed before it started' };
      await unlink(join(this.dir(id), 'spawn.json')).catch(() => undefined);
      await this.finish(killed);
      return killed;
    }
    if (t.status !== 'running' || !e.run) {
      throw new AppError('conflict', `task ${id} is not running (it is ${t.status})`);
    }
    const child = await this.resolveChild(id);
    const fresh = this.d.registry.get(id);
    if (fresh?.run && fresh.task.status === 'running') {
      this.d.registry.set(fresh.task, { ...fresh.run, killSignal: signal });
    }
    try {
      // The whole process group: the command and everything it started, not the wrapper.
      process.kill(-(child ?? e.run.wrapperPid), signal);
    } catch (err) {
      if (!isErrno(err, 'ESRCH')) throw err;
      // Just started: the wrapper records the pid a moment before that process calls setsid, so
      // its group may not exist yet. The process itself does, and has started nothing yet.
      if (child !== undefined) signalIfAlive(child, signal);
    }
    this.d.log.info({ task: id, signal }, 'task signalled');
    return this.get(id);
  }

  async input(id: string, text: string, eof: boolean): Promise<Task> {
    const e = this.entry(id);
    const t = e.task;
    if (t.status !== 'running' && t.status !== 'queued') throw new AppError('conflict', `task ${id} is not running (it is ${t.status})`);
    if (t.stdin === 'none') throw new AppError('stdin_closed', `task ${id} was started with --no-stdin`);
    if (t.stdin === 'closed') throw new AppError('stdin_closed', `stdin of task ${id} was already closed with --eof`);
    if (t.status === 'queued') throw new AppError('conflict', `task ${id} is still queued; send input once it runs`);
    await writeStdin(join(this.dir(id), 'stdin'), Buffer.from(text, 'utf8'), undefined, Date.parse(t.startedAt));
    this.stall.touch(id);
    const cur = this.entry(id);
    if (cur.task.status === 'running') {
      const { attention: _cleared, ...rest } = cur.task;
      const updated: Task = { ...rest, stdin: eof ? 'closed' : rest.stdin };
      this.d.registry.set(updated, cur.run);
      if (eof && cur.run) {
        await this.closeStdin(cur.run);
      }
      await this.d.registry.commit();
    }
    return this.get(id);
  }

  private async closeStdin(run: RunInfo): Promise<void> {
    // SIGUSR1 tells the wrapper to drop its writer on the FIFO; with ours closed the task reads EOF.
    const st = readStat(run.wrapperPid);
    if (st && st.startTicks === run.wrapperStart) process.kill(run.wrapperPid, 'SIGUSR1');
  }

  async wait(id: string, timeoutMs: number): Promise<{ task: Task; timedOut: boolean }> {
    const e = this.entry(id);
    if (isFinished(e.task)) return { task: e.task, timedOut: false };
    return waitForEnd(this.d.events, e.task, timeoutMs, () => this.get(id));
  }

  async remove(id: string): Promise<void> {
    const { task } = this.entry(id);
    if (!isFinished(task)) throw new AppError('conflict', `task ${id} is ${task.status}; kill it first (\`nightshift kill ${id}\`)`);
    this.d.registry.delete(id);
    await this.d.registry.commit();
    await rm(this.dir(id), { recursive: true, force: true });
    this.d.events.emit('removed', task);
  }

  private setAttention(id: string, attention: Attention | undefined): void {
    const e = this.d.registry.get(id);
    if (!e || e.task.status !== 'running') return;
    const { attention: _old, ...rest } = e.task;
    const task: Task = attention ? { ...rest, attention } : rest;
    this.d.registry.set(task, e.run);
    void this.d.registry.commit();
    if (attention) {
      this.d.log.info({ task: id, kind: attention.kind }, 'task needs attention');
      this.d.events.emit('attention', task);
    }
  }

  // ---- background duties ---------------------------------------------------------------------

  /** Settles or re-adopts tasks left running by an earlier daemon, then starts the queue. */
  async startUp(): Promise<void> {
    for (const e of this.d.registry.list()) {
      if (e.task.status !== 'running') continue;
      if (!e.run) {
        await this.settleLost(e.task.id, 'no process information was saved for it');
        continue;
      }
      const v = await judge(this.dir(e.task.id), e.run);
      if (v.kind === 'finished') await this.settle(e.task.id, v.code);
      else if (v.kind === 'lost') await this.settleLost(e.task.id, v.reason);
      else {
        this.adopted.add(e.task.id);
        this.stall.touch(e.task.id, await outputSize(e.task.outputPath));
      }
    }
    if (this.adopted.size > 0) this.d.log.info({ tasks: [...this.adopted] }, 're-adopted running tasks');
    await this.schedule();
    this.timers.push(setInterval(() => void this.pollAdopted(), ADOPTED_POLL_MS));
    const checkStalls = () => this.stall.checkEntries(this.d.registry.list(), (err) => this.d.log.warn({ err: err.message }, 'stall check failed'));
    this.timers.push(setInterval(() => void checkStalls(), this.d.config.stallCheckSeconds * 1000));
    for (const t of this.timers) t.unref();
  }

  private async pollAdopted(): Promise<void> {
    for (const id of [...this.adopted]) {
      const e = this.d.registry.get(id);
      if (!e?.run || e.task.status !== 'running') {
        this.adopted.delete(id);
        continue;
      }
      const v = await judge(this.dir(id), e.run);
      if (v.kind === 'finished') await this.settle(id, v.code);
      else if (v.kind === 'lost') await this.settleLost(id, v.reason);
      // 'child-only': still running, but nobody is left to record how it ends; keep polling.
    }
  }

  stop(): void {
    for (const t of this.timers) clearInterval(t);
  }
}

function signalIfAlive(pid: number, signal: SignalName): void {
  try {
    process.kill(pid, signal);
  } catch (err) {
    if (!isErrno(err, 'ESRCH')) throw err;
  }
}

function closedStdin(task: Task): Task['stdin'] {
  return task.stdin === 'none' ? 'none' : 'closed';
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
