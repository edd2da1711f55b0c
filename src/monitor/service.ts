/**
 * The MCP server monitors of the daemon: each checks its server on its own interval (a check never
 * overlaps the last), keeps a bounded history, and is saved after every check so that monitors and
 * their recent history survive a restart. A change of state is announced to `onChange` listeners
 * (the daemon wires them to notifications).
 */
import { randomBytes } from 'node:crypto';
import { dirname } from 'node:path';
import type { AddMonitorsRequest, AddMonitorsResponse, CheckResult, Monitor, MonitorCounts, MonitorState } from '../api/monitors.js';
import { now } from '../clock.js';
import { AppError } from '../errors.js';
import type { Logger } from '../log.js';
import { discover, readServer, type Found } from './discover.js';
import { p50, pushCheck } from './history.js';
import { MonitorStore, type StoredMonitor } from './store.js';

/** The MCP SDK client (and the schema libraries it loads) only once a monitor is checked: a daemon without monitors does not pay for it at start. */
const loadCheck = async () => (await import('./check.js')).checkServer;

export type MonitorChange = (monitor: Monitor, from: MonitorState, to: MonitorState) => void;

export const DEFAULTS = { intervalMs: 60_000, timeoutMs: 10_000 };
const STOP_WAIT_MS = 2000;

const view = (m: StoredMonitor): Monitor => ({ ...m, p50Ms: p50(m.history) });

export class MonitorService {
  private readonly monitors = new Map<string, StoredMonitor>();
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private readonly running = new Map<string, Promise<Monitor>>();
  private readonly listeners = new Set<MonitorChange>();
  private readonly store: MonitorStore;
  private stopped = false;

  constructor(
    file: string,
    private readonly env: NodeJS.ProcessEnv,
    private readonly log: Logger,
  ) {
    this.store = new MonitorStore(file);
  }

  /** Loads the saved monitors and starts checking them (each first check at once). */
  start(): void {
    for (const m of this.loadSaved()) this.monitors.set(m.id, m);
    for (const id of this.monitors.keys()) this.schedule(id, 0);
  }

  /** Called on every change of a monitor's state; returns the function that stops it. */
  onChange(fn: MonitorChange): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  list(): Monitor[] {
    return [...this.monitors.values()].map(view);
  }

  get(ref: string): Monitor {
    return view(this.find(ref));
  }

  counts(): MonitorCounts {
    const c: MonitorCounts = { up: 0, degraded: 0, down: 0, pending: 0 };
    for (const m of this.monitors.values()) c[m.state] += 1;
    return c;
  }

  async add(req: AddMonitorsRequest): Promise<AddMonitorsResponse> {
    const d = discover(req.project, this.env);
    const wanted = req.all ? d.found : d.found.filter((f) => f.server === req.name);
    if (wanted.length === 0) {
      const known = d.found.map((f) => f.server).join(', ') || 'none';
      throw new AppError(
        'not_found',
        req.all ? 'no MCP server is configured for Claude Code or Codex here' : `no MCP server named ${req.name} is configured (found: ${known})`,
      );
    }
    const out: AddMonitorsResponse = { added: [], existing: [], skipped: d.skipped };
    for (const f of wanted) {
      const same = [...this.monitors.values()].find(
        (m) => m.server === f.server && m.source.kind === f.source.kind && m.source.file === f.source.file && m.source.project === f.source.project,
      );
      if (same) {
        out.existing.push(view(same));
        continue;
      }
      const m = this.create(f, req);
      this.monitors.set(m.id, m);
      out.added.push(view(m));
    }
    try {
      await this.save();
    } catch (err) {
      // Refused (a full disk): not kept, so not listed either, nor written by a later save.
      for (const m of out.added) this.monitors.delete(m.id);
      throw err;
    }
    for (const m of out.added) this.schedule(m.id, 0);
    return out;
  }

  async remove(ref: string): Promise<Monitor> {
    const m = this.find(ref);
    const order = [...this.monitors.keys()];
    this.monitors.delete(m.id);
    clearTimeout(this.timers.get(m.id));
    this.timers.delete(m.id);
    try {
      await this.save();
    } catch (err) {
      // Refused: the monitor stays where it was in the list, and goes on being checked.
      const back = [...this.monitors.values(), m];
      this.monitors.clear();
      for (const x of back.sort((a, b) => order.indexOf(a.id) - order.indexOf(b.id))) this.monitors.set(x.id, x);
      this.schedule(m.id, m.intervalMs);
      throw err;
    }
    return view(m);
  }

  /** Checks now (or waits for the check under way) and answers with the monitor after it. */
  checkNow(ref: string): Promise<Monitor> {
    const m = this.find(ref);
    return this.running.get(m.id) ?? this.run(m.id);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const t of this.timers.values()) clearTimeout(t);
    this.timers.clear();
    // A check under way ends by its timeout; shutdown waits for it only briefly (a stdio server sees its stdin close when the daemon exits).
    await Promise.race([Promise.allSettled(this.running.values()), new Promise((r) => setTimeout(r, STOP_WAIT_MS).unref())]);
  }

  /** A monitors file that cannot be read is kept aside (sys/quarantine.ts) and the daemon starts without monitors. */
  private loadSaved(): StoredMonitor[] {
    const { monitors, setAside } = this.store.load();
    if (setAside) this.log.error({ movedTo: setAside.movedTo }, `${setAside.error}; moved aside, starting without monitors`);
    return monitors;
  }

  private find(ref: string): StoredMonitor {
    const m = this.monitors.get(ref) ?? [...this.monitors.values()].find((x) => x.name === ref);
    if (!m) throw new AppError('not_found', `no monitor ${ref} (see nightshift monitors)`);
    return m;
  }

  private create(f: Found, req: AddMonitorsRequest): StoredMonitor {
    const names = new Set([...this.monitors.values()].map((m) => m.name));
    let name = names.has(f.server) ? `${f.server}@${f.source.kind}` : f.server;
    for (let i = 2; names.has(name); i++) name = `${f.server}@${f.source.kind}-${i}`;
    const timeoutMs = req.timeoutMs ?? DEFAULTS.timeoutMs;
    const at = now().toISOString();
    return {
      id: `m${randomBytes(4).toString('hex')}`,
      name,
      server: f.server,
      transport: f.spec.transport,
      source: f.source,
      intervalMs: req.intervalMs ?? DEFAULTS.intervalMs,
      timeoutMs,
      slowMs: req.slowMs ?? Math.max(50, Math.round(timeoutMs / 2)),
      createdAt: at,
      state: 'pending',
      since: at,
      history: [],
    };
  }

  private schedule(id: string, delayMs: number): void {
    if (this.stopped) return;
    clearTimeout(this.timers.get(id));
    const t = setTimeout(() => {
      this.timers.delete(id);
      if (!this.running.has(id)) this.run(id).catch((err: unknown) => this.log.error({ err: (err as Error).message, monitor: id }, 'monitor check failed'));
    }, delayMs);
    t.unref();
    this.timers.set(id, t);
  }

  private run(id: string): Promise<Monitor> {
    const p = this.check(id).finally(() => {
      this.running.delete(id);
      const m = this.monitors.get(id);
      if (m) this.schedule(id, m.intervalMs);
    });
    this.running.set(id, p);
    return p;
  }

  private async check(id: string): Promise<Monitor> {
    const m = this.monitors.get(id);
    if (!m) throw new AppError('not_found', `no monitor ${id}`);
    const spec = readServer(m.source, m.server, this.env);
    const cwd = m.source.project ?? (m.source.kind === 'mcp-json' ? dirname(m.source.file) : (this.env.HOME ?? '/'));
    const r: CheckResult =
      typeof spec === 'string'
        ? { at: now().toISOString(), state: 'down', latencyMs: null, error: spec }
        : await (
            await loadCheck()
          )(spec, { timeoutMs: m.timeoutMs, slowMs: m.slowMs, cwd, env: this.env });
    const current = this.monitors.get(id);
    if (!current) return view({ ...m, last: r }); // removed while it ran
    const from = current.state;
    const next: StoredMonitor = { ...current, last: r, history: pushCheck(current.history, r), state: r.state, since: r.state === from ? current.since : r.at };
    this.monitors.set(id, next);
    if (from !== r.state) {
      this.log.info({ monitor: next.name, from, to: r.state, error: r.error }, 'monitor state changed');
      for (const fn of this.listeners) {
        try {
          fn(view(next), from, r.state);
        } catch (err) {
          this.log.error({ err: (err as Error).message, monitor: next.name }, 'a monitor change listener failed');
        }
      }
    }
    await this.save().catch((err: unknown) => this.log.error({ err: (err as Error).message }, 'monitors could not be saved; the last saved copy stays'));
    return view(next);
  }

  private save(): Promise<void> {
    return this.store.save(() => [...this.monitors.values()]);
  }
}
