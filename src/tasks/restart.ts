/** `restart ID`: what a new run of a finished task is asked to be. */
import { isFinished, type RunRequest, type Task } from '../api/tasks.js';
import { AppError } from '../errors.js';

/**
 * The command, cwd, name, stdin, stall time, group (while it exists), timeout and labels of `old`;
 * the environment is the caller's, since a task's own is not kept once it has started.
 */
export function restartRequest(old: Task, env: Record<string, string>, groupExists: (name: string) => boolean): RunRequest {
  if (!isFinished(old)) throw new AppError('conflict', `task ${old.id} is ${old.status}; kill it (\`nightshift kill ${old.id}\`) or wait for it first`);
  return {
    command: old.command,
    cwd: old.cwd,
    env,
    stdin: old.stdin !== 'none',
    stallAfterSeconds: old.stallAfterSeconds,
    ...(old.name !== null ? { name: old.name } : {}),
    ...(old.group !== undefined && groupExists(old.group) ? { group: old.group } : {}),
    ...(old.timeoutSeconds !== undefined ? { timeoutSeconds: old.timeoutSeconds } : {}),
    ...(old.labels !== undefined ? { labels: old.labels } : {}),
  };
}
