/**
 * The `notify` config section: a command per kind of event (`sh -c`, the event as one JSON line on
 * stdin) and, with `desktop`, a `notify-send` line too. Task exits and stalls come from the task
 * events; `notify()` is for any other service to call (the MCP monitor's events). The older
 * `notifyCommand` setting (`notifier`) runs one command with the task's details in its environment.
 */
import { statusOf, type Attention, type Task, type TaskEvent } from '../api/tasks.js';
import { withFlatStatus } from '../api/task-json.js';
import { now } from '../clock.js';
import type { Config } from '../config.js';
import type { Logger } from '../log.js';
import { which } from '../sys/which.js';

export type NotifyEvent =
  | { type: 'exit'; at: string; task: Task }
  | { type: 'stall'; at: string; task: Task; attention: Attention }
  | { type: 'monitor'; at: string; server: string; status: string; message: string };

type NotifyConfig = Config['notify'];

const COMMAND_KEY = { exit: 'onExit', stall: 'onStall', monitor: 'onMonitor' } as const;

let current: { config: NotifyConfig; log: Logger } | null = null;

/** Set by the daemon at start and on reload; until then, `notify` does nothing. */
export function configureNotify(config: NotifyConfig, log: Logger): void {
  current = { config, log };
}

/** Runs the configured command for the event's type (and notify-send); never throws, never waits. */
export function notify(event: NotifyEvent): void {
  if (!current) return;
  const { config, log } = current;
  const command = config[COMMAND_KEY[event.type]];
  if (command !== undefined) run('/bin/sh', ['-c', command], `${JSON.stringify(event, withFlatStatus)}\n`, log, event.type);
  if (config.desktop) {
    const bin = which('notify-send', process.env.PATH);
    if (bin) run(bin, ['--app-name=nightshift', ...summary(event)], '', log, event.type);
  }
}

/** The notify events of a task event: an exit, or attention (a stall). */
export function notifyTaskEvent(e: TaskEvent): void {
  if (e.type === 'exited') notify({ type: 'exit', at: e.at, task: e.task });
  else if (e.type === 'attention' && e.task.state === 'running' && e.task.attention)
    notify({ type: 'stall', at: e.at, task: e.task, attention: e.task.attention });
}

export function monitorEvent(server: string, status: string, message: string): NotifyEvent {
  return { type: 'monitor', at: now().toISOString(), server, status, message };
}

function summary(e: NotifyEvent): [string, string] {
  if (e.type === 'monitor') return [`nightshift: MCP server ${e.server} ${e.status}`, e.message];
  const label = `task ${e.task.id}${e.task.name ? ` (${e.task.name})` : ''}`;
  if (e.type === 'stall') return [`nightshift: ${label} needs attention`, e.attention.tail.slice(-200)];
  const how = e.task.state === 'finished' && 'exitCode' in e.task.outcome ? `exit ${e.task.outcome.exitCode}` : statusOf(e.task);
  return [`nightshift: ${label} ended (${how})`, e.task.command.join(' ').slice(0, 200)];
}

function run(file: string, args: string[], input: string, log: Logger, type: NotifyEvent['type']): void {
  // execa is loaded on the first notification, not at daemon start.
  import('execa')
    .then(({ execa }) => execa(file, args, { input, stdout: 'ignore', stderr: 'ignore', timeout: 30_000, reject: false, cleanup: false }))
    .then(
      (r) => {
        if (r.failed) log.warn({ event: type, exitCode: r.exitCode, command: file }, 'notify command failed');
      },
      (err: unknown) => log.warn({ event: type, err: (err as Error).message }, 'notify command could not run'),
    );
}

/**
 * Runs the configured notify command (sh -c) on attention and exit. The task's details arrive in
 * its environment; the task's own environment is never passed on.
 */
export function notifier(command: string, log: Logger): (e: TaskEvent) => void {
  return (e) => {
    if (e.type !== 'attention' && e.type !== 'exited') return;
    const t = e.task;
    const env: Record<string, string> = {
      NIGHTSHIFT_EVENT: e.type,
      NIGHTSHIFT_TASK_ID: t.id,
      NIGHTSHIFT_TASK_NAME: t.name ?? '',
      NIGHTSHIFT_TASK_STATUS: statusOf(t),
      NIGHTSHIFT_EXIT_CODE: t.state === 'finished' && 'exitCode' in t.outcome ? String(t.outcome.exitCode) : '',
      NIGHTSHIFT_OUTPUT: t.outputPath,
      NIGHTSHIFT_ATTENTION: t.state === 'running' && t.attention ? t.attention.kind : '',
    };
    // execa is loaded on the first notification, not at daemon start (~0.1–0.25 s of start-up).
    import('execa')
      .then(({ execa }) => execa('/bin/sh', ['-c', command], { env, stdio: 'ignore', timeout: 30_000, reject: false, cleanup: false }))
      .then(
        (r) => {
          if (r.failed) log.warn({ task: t.id, event: e.type, exitCode: r.exitCode }, 'notify command failed');
        },
        () => undefined,
      );
  };
}
