import { chmodSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig, type Config } from '../config.js';
import { AppError } from '../errors.js';
import { createLogger, type Logger } from '../log.js';
import { MonitorService } from '../monitor/service.js';
import { INSTALL, resolvePaths, type Paths } from '../paths.js';
import { TaskEvents } from '../tasks/events.js';
import { TaskManager } from '../tasks/manager.js';
import { configureNotify, monitorEvent, notifier, notify, notifyTaskEvent } from '../tasks/notify.js';
import { Schedules } from '../workflows/schedules.js';
import { Workflows } from '../workflows/workflows.js';
import { GroupStore } from '../tasks/groups.js';
import { TaskRegistry } from '../tasks/registry.js';
import { journalPath } from '../tasks/state-journal.js';
import { daemonEnv, dropNpmEnvironment } from '../sys/npm-env.js';
import { acquirePidLock, type PidLock } from '../sys/pid-lock.js';
import type { Handlers } from './http.js';
import { Listeners } from './listeners.js';
import { startMemory } from './memory-start.js';
import { installProcessErrorHandlers } from './process-errors.js';
import { ConfigReloader } from './reload.js';
import { startRetention } from './retention-sweep.js';
import { agentHandlers } from './routes/agent.js';
import { dreamHandlers } from './routes/dream.js';
import { eventHandlers } from './routes/events.js';
import { memoryHandlers } from './routes/memory.js';
import { injectionRoutes } from './routes/injections.js';
import { rejectionHandlers } from './routes/rejections.js';
import { memoryBrowseHandlers } from './routes/memory-browse.js';
import { monitorHandlers } from './routes/monitors.js';
import { modelUsageHandlers } from './routes/model-usage.js';
import { sessionHandlers } from './routes/sessions.js';
import { statusHandlers } from './routes/status.js';
import { scheduleHandlers } from './routes/schedules.js';
import { workflowHandlers } from './routes/workflows.js';
import { groupHandlers } from './routes/groups.js';
import { taskHandlers } from './routes/tasks.js';
import { uiHandlers } from './routes/ui.js';
import { createApiHandler, createApiServer } from './server.js';
import { Dashboard } from '../ui/dashboard.js';
import { Streams } from './streams.js';

export interface DaemonOptions {
  /** Move a corrupt state file aside and rebuild it from the task directories. */
  recover?: boolean;
}

/** Exit code for configuration and state problems: systemd does not restart on it (RestartPreventExitStatus). */
export const EXIT_CONFIG = 78;

/** One daemon per state directory. */
function acquireDaemonLock(file: string): Promise<PidLock> {
  return acquirePidLock(file, {
    held: (h) =>
      new AppError(
        'daemon_running',
        h ? `nightshift daemon is already running (pid ${h.pid}; lock ${file})` : `could not take the lock ${file}; another daemon is starting`,
      ),
  });
}

function ensurePrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
}

/** Runs the daemon in the foreground until SIGTERM/SIGINT. Resolves with the process exit code. */
export async function runDaemon(opts: DaemonOptions = {}): Promise<number> {
  const startedAt = Date.now();
  const paths = resolvePaths();
  let config: Config;
  try {
    config = loadConfig(paths.configFile);
  } catch (err) {
    process.stderr.write(`nightshift: ${(err as Error).message}\n`);
    return EXIT_CONFIG;
  }
  ensurePrivateDir(paths.stateDir);
  ensurePrivateDir(paths.tasksDir);
  ensurePrivateDir(paths.runtimeDir);
  let lock: PidLock;
  try {
    lock = await acquireDaemonLock(paths.lockFile);
  } catch (err) {
    process.stderr.write(`nightshift: ${(err as Error).message}\n`);
    return 1;
  }
  // Before anything that runs or looks up a program (spawner, schedules, backends, doctor).
  const npm = dropNpmEnvironment(process.env);
  const log = createLogger(config.logLevel);
  installProcessErrorHandlers(log);
  if (npm)
    log.info({ dropped: npm.removed.length, path: npm.path }, 'started by npm: dropped the variables npm added and its node_modules/.bin dirs from PATH');
  try {
    return await serve(paths, config, log, lock, startedAt, opts);
  } catch (err) {
    lock.release();
    for (const [file, what] of [
      [schedulesFile(paths), 'schedules'],
      [join(paths.stateDir, 'workflows.json'), 'workflow records (the tasks stay)'],
    ] as const) {
      if (err instanceof AppError && err.code === 'state_corrupt' && err.message.includes(file)) {
        log.fatal({ code: err.code }, err.message);
        process.stderr.write(`nightshift: ${err.message}.\nNothing was changed. Fix the file, or move it aside to start without ${what}.\n`);
        return EXIT_CONFIG;
      }
    }
    if (err instanceof AppError && err.code === 'state_corrupt') {
      log.fatal({ code: err.code }, err.message);
      process.stderr.write(
        `nightshift: ${err.message}.\n` +
          `Nothing was changed. To recover, run \`nightshift daemon --recover\`: it moves the state file and its journal\n` +
          `aside (kept as ${paths.stateFile}.corrupt-<time> and ${journalPath(paths.stateFile)}.corrupt-<time>) and rebuilds the\n` +
          `task list from ${paths.tasksDir}.\n`,
      );
      return EXIT_CONFIG;
    }
    // Any other failure to start (a TCP port in use, a token file others can read): say so and exit,
    // never stay up half-started without the lock.
    const message = (err as Error).message;
    log.fatal({ code: err instanceof AppError ? err.code : 'internal' }, message);
    process.stderr.write(`nightshift: the daemon cannot start: ${message}\n`);
    return err instanceof AppError && err.code === 'config_invalid' ? EXIT_CONFIG : 1;
  }
}

async function serve(paths: Paths, config: Config, log: Logger, lock: PidLock, startedAt: number, opts: DaemonOptions): Promise<number> {
  if (opts.recover) {
    const r = await TaskRegistry.recover(paths.stateFile, paths.tasksDir);
    log.warn({ movedTo: r.movedTo, tasks: r.tasks }, 'state rebuilt from task directories');
  }
  const registry = await TaskRegistry.open(paths.stateFile, log);
  const unlisted = registry.adoptUnlisted(paths.tasksDir);
  if (unlisted.length > 0) log.warn({ tasks: unlisted }, 'took back tasks started by a daemon that died before saving them');
  const events = new TaskEvents();
  const groups = await GroupStore.open(paths.stateDir, () => tasks.maxParallel);
  const tasks = new TaskManager({ paths, config, log, registry, events, groups });
  await tasks.startUp();
  const schedules = new Schedules({ file: schedulesFile(paths), tasks, events, log, env: daemonEnv });
  await schedules.start();
  const workflows = new Workflows({ tasks, groups, events, log, stateDir: paths.stateDir });
  await workflows.start();
  const memory = await startMemory(paths, config, log);
  // MCP server monitors; a change of state runs notify.onMonitor (and notify-send when asked for).
  const monitors = new MonitorService(paths.monitorsFile, process.env, log);
  monitors.onChange((m, from, to) => notify(monitorEvent(m.name, to, `${from} → ${to}${m.last?.error ? `: ${m.last.error}` : ''}`)));
  monitors.start();
  // What a reload may swap: the notify listener, the retention sweep, the request size limit.
  configureNotify(config.notify, log);
  events.on(notifyTaskEvent);
  let offNotify = config.notifyCommand ? events.on(notifier(config.notifyCommand, log)) : () => undefined;
  let stopRetention = startRetention(tasks, config.retentionDays, log);
  let maxRequestBytes = config.maxRequestBytes;

  const streams = new Streams();
  // Assigned once below; the request handlers close over them before then.
  // eslint-disable-next-line prefer-const
  let listeners: Listeners | undefined;
  // eslint-disable-next-line prefer-const
  let reloader: ConfigReloader | undefined;
  const handlers = (): Handlers => ({
    ...statusHandlers(
      tasks,
      memory.service,
      memory.dreams,
      {
        socket: paths.socket,
        tcp: () => listeners?.tcpAddress ?? null,
        stateDir: paths.stateDir,
        startedAt,
        extractor: memory.extractor,
      },
      monitors,
    ),
    ...monitorHandlers(monitors),
    ...taskHandlers(tasks, events, streams),
    ...scheduleHandlers(schedules),
    ...workflowHandlers(workflows),
    ...groupHandlers(tasks, groups),
    ...eventHandlers(events, streams),
    ...memoryHandlers(memory.service, memory.prompts, memory.injections),
    ...injectionRoutes(memory, () => tasks.list({ all: true }), log),
    ...rejectionHandlers(memory.service, memory.injections),
    ...sessionHandlers(memory.service, log),
    ...memoryBrowseHandlers(memory.service, memory.dreams.reports, memory.injections),
    ...dreamHandlers(memory.dreams, streams, memory.service.store),
    ...modelUsageHandlers({
      ledger: memory.ledger,
      extractor: memory.extractor,
      dreams: memory.dreams,
      config: () => reloader?.config ?? config,
      env: process.env,
      injected: () => memory.injections.totals(),
    }),
    ...agentHandlers({ tasks, socket: paths.socket, env: process.env }),
    ...uiHandlers(() => dashboard),
    reload: async () => {
      if (!reloader) throw new AppError('daemon_unavailable', 'the daemon is still starting; reload in a moment');
      return { json: await reloader.reload() };
    },
  });
  const make = (token?: string) =>
    createApiServer({ handlers: handlers(), maxRequestBytes: () => maxRequestBytes, log, ...(token !== undefined && { token }) });
  listeners = new Listeners(paths.socket, paths.tokenFile, make);
  // TCP first: when it cannot listen, start-up fails before anything is served.
  await listeners.setTcp(config.tcp);
  await listeners.listenUnix();
  const dashboard = new Dashboard({
    port: () => (reloader?.config ?? config).ui.port,
    enabledByConfig: config.ui.enabled,
    stateFile: paths.uiStateFile,
    assetsDir: join(INSTALL.root, 'dist', 'ui'),
    api: createApiHandler({ handlers: handlers(), maxRequestBytes: () => maxRequestBytes, log }),
    log,
  });
  await dashboard.startUp();
  reloader = new ConfigReloader(config, {
    configFile: paths.configFile,
    log,
    listeners,
    tasks,
    memory: memory.service,
    dreams: memory.dreams,
    applyRest: (next, prev) => {
      if (next.notifyCommand !== prev.notifyCommand) {
        offNotify();
        offNotify = next.notifyCommand ? events.on(notifier(next.notifyCommand, log)) : () => undefined;
      }
      if (next.retentionDays !== prev.retentionDays) {
        stopRetention();
        stopRetention = startRetention(tasks, next.retentionDays, log);
      }
      maxRequestBytes = next.maxRequestBytes;
      configureNotify(next.notify, log);
      memory.ledger.dailyBudget = next.memory.dailyTokenBudget;
    },
  });
  const onHangup = () => {
    const r = reloader;
    r?.reload().catch((err: unknown) => log.error({ err: (err as Error).message }, 'reload on SIGHUP failed; the config in effect is unchanged'));
  };
  process.on('SIGHUP', onHangup);
  log.info({ socket: paths.socket, tcp: listeners.tcpAddress, ui: dashboard.url }, 'nightshift daemon ready');
  memory.afterReady();

  const signal = await new Promise<NodeJS.Signals>((resolve) => {
    process.once('SIGTERM', () => resolve('SIGTERM'));
    process.once('SIGINT', () => resolve('SIGINT'));
  });
  log.info({ signal }, 'shutting down; tasks keep running');
  process.off('SIGHUP', onHangup);
  // Stop accepting, end long-lived streams (clients resume by offset), let in-flight requests finish.
  const closed = Promise.all([listeners.close(), dashboard.close()]);
  streams.closeAll();
  await closed;
  schedules.stop();
  workflows.stop();
  await tasks.stop();
  await monitors.stop();
  stopRetention();
  await memory.stop();
  await registry
    .close()
    .catch((err: unknown) => log.error({ err: (err as Error).message }, 'the last task state could not be saved; the last saved copy stays'));
  listeners.removeSocket();
  lock.release();
  log.info('stopped');
  return 0;
}

function schedulesFile(paths: Paths): string {
  return join(paths.stateDir, 'schedules.json');
}
