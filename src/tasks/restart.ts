/** `restart ID`: what a new run of a finished task is asked to be. */
import { isFinished, statusOf, type RunRequest, type Task } from '../api/tasks.js';
import { AppError } from '../errors.js';

/**
 * The command, cwd, name, stdin, stall time, group (while it exists), timeout, labels and retries
 * (`--retry` as first given, and its delay) of `old`; not its dependencies: the new task runs now.
 * The environment is the caller's, since a task's own is not kept once it has started.
 */
export function restartRequest(old: Task, env: Record<string, string>, groupExists: (name: string) => boolean): RunRequest {
  if (!isFinished(old)) throw new AppError('conflict', `task ${old.id} is ${statusOf(old)}; kill it (\`nightshift kill ${old.id}\`) or wait for it first`);
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
    ...(old.retries !== undefined ? { retry: firstRetry(old.retries, old.attempt) } : {}),
    ...(old.retryDelaySeconds !== undefined ? { retryDelaySeconds: old.retryDelaySeconds } : {}),
  };
}

/** The `--retry N` the first attempt was given: attempt k has N − (k − 1) runs left. */
function firstRetry(retriesLeft: number, attempt: number | undefined): number {
  return retriesLeft + (attempt ?? 1) - 1;
}
