/**
 * Schedules: a cron expression that starts a task (through TaskManager.run, as `run` does) at each
 * firing, linked to its schedule. Overlap: `skip` (default) drops a firing while the previous
 * firing's task still runs, `allow` starts it anyway, `queue` starts it when that task ends (one
 * waits at most). `catchUp`: a firing missed while the daemon was down runs once at start.
 *
 * A change is made to the data, saved, and only then do the timers follow it (`reconcile`); a save
 * that fails puts the data back to what is on disk and the timers follow that instead, so a refused
 * `add` never fires and a refused `pause` or `rm` leaves the schedule firing.
 */
import type { AddScheduleRequest, Firing, ScheduleView } from '../api/schedules.js';
import { isFinished, type ScheduleLink } from '../api/tasks.js';
import { now } from '../clock.js';
import { AppError } from '../errors.js';
import type { Logger } from '../log.js';
import { checkCron, checkTimeZone, nextTimes, startTimer, type Timer } from './cron.js';
import type { TaskEvents } from '../tasks/events.js';
import type { TaskManager } from '../tasks/manager.js';
import { FIRINGS_KEPT, ScheduleStore, type StoredSchedule } from './schedule-store.js';
import { preflight, toArgv } from '../tasks/argv.js';

export interface ScheduleDeps {
  file: string;
  tasks: TaskManager;
  events: TaskEvents;
  log: Logger;
  /** The environment scheduled tasks start from (the daemon's); a schedule's own values go on top. */
  env: () => Record<string, string>;
}

export class Schedules {
  private readonly store: ScheduleStore;
  private readonly timers = new Map<string, Timer>();
  /** Schedules whose firing is starting its task now: a firing that comes meanwhile overlaps it. */
  private readonly starting = new Set<string>();
  private offEvents: () => void = () => undefined;
  private stopped = false;

  constructor(private readonly d: ScheduleDeps) {
    this.store = new ScheduleStore(d.file, () => this.reconcile());
  }

  /** Arms every schedule that is not paused; runs the missed firing of those with catch-up. */
  async start(): Promise<void> {
    this.offEvents = this.d.events.on((e) => {
      if (e.type === 'exited' || e.type === 'removed') this.onTaskEnd(e.task.id);
    });
    const missed: [StoredSchedule, Date][] = [];
    const waited: StoredSchedule[] = [];
    for (const s of this.store.data.schedules) {
      if (s.paused) continue;
      if (s.waitingSince !== undefined) waited.push(s);
      const due = s.dueAt === null ? null : new Date(s.dueAt);
      if (s.catchUp && due !== null && due.getTime() < now().getTime()) missed.push([s, due]);
      this.arm(s);
    }
    await this.save();
    // A queued firing whose task ended while the daemon was down starts now; the others keep waiting.
    // (Checked again after the await: the task's end event may have started it meanwhile.)
    for (const s of waited) if ((await this.runningTask(s)) === undefined && s.waitingSince !== undefined) await this.startWaiting(s);
    for (const [s, due] of missed) await this.fire(s, due, true);
  }

  stop(): void {
    this.stopped = true;
    this.offEvents();
    for (const t of this.timers.values()) t.stop();
    this.timers.clear();
  }

  async add(req: AddScheduleRequest): Promise<ScheduleView> {
    checkCron(req.cron);
    if (req.tz !== undefined) checkTimeZone(req.tz);
    const env = req.env ?? {};
    preflight(toArgv(req.command), req.cwd, { ...this.d.env(), ...env });
    if (req.name !== undefined && this.store.data.schedules.some((s) => s.name === req.name))
      throw new AppError('conflict', `a schedule named "${req.name}" exists (see \`nightshift schedule list\`)`);
    const s: StoredSchedule = {
      id: this.store.allocateId(),
      name: req.name ?? null,
      cron: req.cron,
      tz: req.tz ?? null,
      overlap: req.overlap,
      catchUp: req.catchUp,
      command: req.command,
      cwd: req.cwd,
      env,
      paused: false,
      createdAt: now().toISOString(),
      lastFiredAt: null,
      firings: [],
      dueAt: nextTimes(req.cron, req.tz ?? null, 1)[0]?.toISOString() ?? null,
    };
    this.store.data.schedules.push(s);
    await this.save();
    this.reconcile();
    return this.view(s);
  }

  list(): ScheduleView[] {
    return this.store.data.schedules.map((s) => this.view(s));
  }

  get(ref: string): ScheduleView {
    return this.view(this.find(ref));
  }

  async setPaused(ref: string, paused: boolean): Promise<ScheduleView> {
    const s = this.find(ref);
    s.paused = paused;
    if (paused) {
      delete s.waitingSince;
      s.dueAt = null;
    } else if (!this.timers.has(s.id)) s.dueAt = nextTimes(s.cron, s.tz, 1)[0]?.toISOString() ?? null;
    await this.save();
    this.reconcile();
    return this.view(s);
  }

  /** Removes the schedule; tasks it started are left as they are. */
  async remove(ref: string): Promise<void> {
    const s = this.find(ref);
    this.store.data.schedules = this.store.data.schedules.filter((x) => x !== s);
    await this.save();
    this.reconcile();
  }

  private find(ref: string): StoredSchedule {
    const s = this.store.data.schedules.find((x) => x.id === ref || x.name === ref);
    if (!s) throw new AppError('not_found', `no schedule ${ref} (see \`nightshift schedule list\`)`);
    return s;
  }

  private view(s: StoredSchedule): ScheduleView {
    const { env, dueAt: _due, waitingSince, ...rest } = s;
    const next = s.paused ? [] : (this.timers.get(s.id)?.next(5) ?? nextTimes(s.cron, s.tz, 5));
    return { ...rest, envKeys: Object.keys(env), next: next.map((d) => d.toISOString()), waiting: waitingSince !== undefined };
  }

  /** The timer fires the schedule as the data holds it then (a failed save may have put in another copy, or none). */
  private arm(s: StoredSchedule): void {
    const { id } = s;
    const timer = startTimer(s.cron, s.tz, (at) => {
      const cur = this.store.data.schedules.find((x) => x.id === id);
      if (!cur || cur.paused) return;
      this.fire(cur, at, false).catch((err: unknown) => this.d.log.error({ schedule: id, err: (err as Error).message }, 'schedule firing failed'));
    });
    this.timers.set(id, timer);
    s.dueAt = timer.next(1)[0]?.toISOString() ?? null;
  }

  /** Timers for exactly the schedules of the data that are not paused. */
  private reconcile(): void {
    if (this.stopped) return;
    const live = new Map(this.store.data.schedules.map((s) => [s.id, s]));
    for (const [id, timer] of this.timers) {
      if (live.get(id)?.paused !== false) {
        timer.stop();
        this.timers.delete(id);
      }
    }
    for (const s of live.values()) if (!s.paused && !this.timers.has(s.id)) this.arm(s);
  }

  private save(): Promise<void> {
    return this.store.save();
  }

  /** The task of the schedule's latest started firing while it has not ended. */
  private async runningTask(s: StoredSchedule): Promise<string | undefined> {
    const id = s.firings.findLast((f) => f.outcome === 'started')?.taskId;
    if (id === undefined) return undefined;
    const task = await this.d.tasks.get(id).catch(() => undefined);
    return task && !isFinished(task) ? id : undefined;
  }

  private async fire(s: StoredSchedule, at: Date, catchUp: boolean): Promise<void> {
    const timer = this.timers.get(s.id);
    if (timer) s.dueAt = timer.next(1)[0]?.toISOString() ?? null;
    if (s.overlap === 'allow') return this.startTask(s, at, catchUp);
    // Claimed before the first await, so two firings close together cannot both start a task.
    const busy = this.starting.has(s.id) ? 'starting' : undefined;
    if (busy === undefined) this.starting.add(s.id);
    const running = busy ?? (await this.runningTask(s));
    if (running === undefined) return this.startTask(s, at, catchUp);
    if (busy === undefined) this.starting.delete(s.id);
    const outcome = s.overlap === 'queue' ? 'queued' : 'skipped';
    if (outcome === 'queued') s.waitingSince = at.toISOString();
    this.d.log.info({ schedule: s.id, task: running, outcome }, 'schedule firing while its previous task runs');
    await this.record(s, { at: at.toISOString(), outcome, ...(running !== 'starting' && { taskId: running }), ...(catchUp && { catchUp }) });
  }

  private async startTask(s: StoredSchedule, at: Date, catchUp: boolean): Promise<void> {
    const link: ScheduleLink = { id: s.id, name: s.name };
    const base = { at: at.toISOString(), ...(catchUp && { catchUp }) };
    this.starting.add(s.id);
    try {
      const req = { command: s.command, cwd: s.cwd, env: { ...this.d.env(), ...s.env }, stdin: false, ...(s.name !== null && { name: s.name }) };
      const task = await this.d.tasks.run(req, undefined, { schedule: link });
      this.d.log.info({ schedule: s.id, task: task.id, catchUp }, 'schedule fired');
      await this.record(s, { ...base, outcome: 'started', taskId: task.id });
    } catch (err) {
      this.d.log.warn({ schedule: s.id, err: (err as Error).message }, 'a schedule firing could not start its task');
      await this.record(s, { ...base, outcome: 'failed', error: (err as Error).message });
    } finally {
      this.starting.delete(s.id);
    }
  }

  private async record(s: StoredSchedule, f: Firing): Promise<void> {
    s.lastFiredAt = f.at;
    s.firings = [...s.firings, f].slice(-FIRINGS_KEPT);
    // A schedule removed meanwhile is not in the list: saving is harmless.
    await this.save().catch((err: unknown) => this.d.log.error({ schedule: s.id, err: (err as Error).message }, 'could not save the schedules'));
  }

  private onTaskEnd(taskId: string): void {
    for (const s of this.store.data.schedules) {
      if (s.waitingSince === undefined || s.firings.findLast((f) => f.outcome === 'started')?.taskId !== taskId) continue;
      this.startWaiting(s).catch((err: unknown) => this.d.log.error({ schedule: s.id, err: (err as Error).message }, 'queued firing failed'));
    }
  }

  /** Starts the firing that waited (`overlap: queue`); it is no longer waiting once its start is recorded. */
  private startWaiting(s: StoredSchedule): Promise<void> {
    const at = new Date(s.waitingSince as string);
    delete s.waitingSince;
    return this.startTask(s, at, false);
  }
}
