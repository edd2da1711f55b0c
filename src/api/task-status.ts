/** What a task's status means to a caller. Zod-free, so the CLI's fast path can use it (api/tasks.ts re-exports it). */
export type TaskStatus = 'queued' | 'running' | 'exited' | 'killed' | 'timed_out' | 'skipped' | 'failed_to_start' | 'lost';

export const FINISHED: ReadonlySet<TaskStatus> = new Set(['exited', 'killed', 'timed_out', 'skipped', 'failed_to_start', 'lost']);
export const isFinished = (t: { status: TaskStatus }): boolean => FINISHED.has(t.status);

/** `wait`'s exit code for a task its deadline (`run --timeout`) ended. 124 is taken by `wait --timeout`. */
export const TIMED_OUT_EXIT = 123;
/** `wait`'s exit code for a task that never ran because a dependency did not succeed. */
export const SKIPPED_EXIT = 125;

/** Exit code a shell would report: 128+signal when killed. */
export function shellExitCode(task: { status: TaskStatus; exitCode?: number }): number | null {
  switch (task.status) {
    case 'exited':
    case 'killed':
      return task.exitCode ?? null;
    case 'timed_out':
      return TIMED_OUT_EXIT;
    case 'skipped':
      return SKIPPED_EXIT;
    case 'failed_to_start':
      return 127;
    case 'lost':
      return 255;
    default:
      return null;
  }
}
