/**
 * `nightshift reload` and SIGHUP: the config file is read again and what can be swapped in a running
 * daemon is, closing what it replaces (the old TCP listener, the old dream schedule). An invalid
 * file, a bad cron expression or a port that cannot be had changes nothing.
 *
 * Applied at once: logLevel, tcp, maxParallel, outputCapBytes and stallAfterSeconds (for new
 * tasks), stallCheckSeconds, retentionDays, notifyCommand, notify.*, maxRequestBytes, memory.recallBudget,
 * memory.episodesInRecall, memory.maxPerSession, memory.dailyTokenBudget, dream.schedule,
 * dream.minHours, dream.minSessions, dream.cap. Waiting for a restart (see NEEDS_RESTART): the
 * extractor, its model and agent-CLI settings, the dream's reviewer and model budget, transcript
 * watching, team directories, the dashboard's ui.enabled and ui.port (`nightshift ui` turns it on or off now).
 */
import { isDeepStrictEqual } from 'node:util';
import type { ReloadResponse } from '../api/status.js';
import { loadConfig, type Config } from '../config.js';
import type { DreamService } from '../dream/service.js';
import type { Logger } from '../log.js';
import type { MemoryService } from '../memory/index.js';
import type { TaskManager } from '../tasks/manager.js';
import type { Listeners } from './listeners.js';

/** The memory keys the model backend is built from at start-up. */
const MODEL_KEYS = ['extractor', 'model', 'claudePath', 'codexPath', 'codexModel', 'codexConfig', 'maxUsdPerCall', 'cliTimeoutSeconds'] as const;

/** Keys (or key prefixes, ending in `.`) that a running daemon keeps until it restarts. */
const NEEDS_RESTART = [...MODEL_KEYS.map((k) => `memory.${k}`), 'dream.tokenBudget', 'dream.reviewer', 'transcripts.', 'teams', 'ui.'];

export interface ReloadTargets {
  configFile: string;
  log: Logger;
  listeners: Listeners;
  tasks: TaskManager;
  memory: MemoryService;
  dreams: DreamService;
  /** What the daemon's start-up owns (notify command, retention sweep, request size limit). */
  applyRest(config: Config, previous: Config): void;
}

export class ConfigReloader {
  private chain: Promise<unknown> = Promise.resolve();

  constructor(
    private current: Config,
    private readonly t: ReloadTargets,
  ) {}

  /** The config in effect (restart-only keys as they were at start). */
  get config(): Config {
    return this.current;
  }

  /** One reload at a time: a second waits for the first. */
  reload(): Promise<ReloadResponse> {
    const next = this.chain.then(() => this.apply());
    this.chain = next.catch(() => undefined);
    return next;
  }

  private async apply(): Promise<ReloadResponse> {
    const prev = this.current;
    const read = loadConfig(this.t.configFile);
    const changed = changedKeys(prev, read);
    const needsRestart = changed.filter(waitsForRestart);
    const next = keepRestartOnly(read, prev);
    // What can fail first, each undone when a later one fails: then nothing has changed.
    if (!isDeepStrictEqual(next.dream, prev.dream)) await this.t.dreams.reconfigure(next);
    try {
      await this.t.listeners.setTcp(next.tcp);
    } catch (err) {
      if (!isDeepStrictEqual(next.dream, prev.dream)) await this.t.dreams.reconfigure(prev);
      throw err;
    }
    this.t.log.level = next.logLevel;
    await this.t.tasks.reconfigure(next);
    this.t.memory.reconfigure(next);
    this.t.applyRest(next, prev);
    this.current = next;
    const applied = changed.filter((k) => !waitsForRestart(k));
    this.t.log.info({ applied, needsRestart }, 'config reloaded');
    return { applied, needsRestart };
  }
}

function waitsForRestart(key: string): boolean {
  return NEEDS_RESTART.some((k) => (k.endsWith('.') ? key.startsWith(k) : key === k));
}

/** `read` with the keys that wait for a restart as they are now. */
function keepRestartOnly(read: Config, prev: Config): Config {
  return {
    ...read,
    memory: { ...read.memory, ...Object.fromEntries(MODEL_KEYS.map((k) => [k, prev.memory[k]])) },
    dream: { ...read.dream, tokenBudget: prev.dream.tokenBudget, reviewer: prev.dream.reviewer },
    transcripts: prev.transcripts,
    teams: prev.teams,
  };
}

/** Top-level keys, and one level down in the sections (`dream.schedule`), whose values differ. */
function changedKeys(a: Config, b: Config): string[] {
  const out: string[] = [];
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]) as Set<keyof Config>;
  for (const k of keys) {
    const x: unknown = a[k];
    const y: unknown = b[k];
    if (isDeepStrictEqual(x, y)) continue;
    if (isSection(x) && isSection(y) && k !== 'tcp' && k !== 'teams') {
      for (const sub of new Set([...Object.keys(x), ...Object.keys(y)])) if (!isDeepStrictEqual(x[sub], y[sub])) out.push(`${k}.${sub}`);
    } else {
      out.push(k);
    }
  }
  return out.sort();
}

function isSection(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
