import { statusOf, type TaskEvent } from '../api/tasks.js';
import type { Logger } from '../log.js';

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
