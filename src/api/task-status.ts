/** What a task's status means to a caller. Zod-free, so the CLI's fast path can use it (api/tasks.ts re-exports it). */
export type TaskStatus = 'queued' | 'running' | 'exited' | 'killed' | 'failed_to_start' | 'lost';

export const FINISHED: ReadonlySet<TaskStatus> = new Set(['exited', 'killed', 'failed_to_start', 'lost']);
export const isFinished = (t: { status: TaskStatus }): boolean => FINISHED.has(t.status);

/** Exit code a shell would report: 128+signal when killed. */
export function shellExitCode(task: { status: TaskStatus; exitCode?: number }): number | null {
  switch (task.status) {
    case 'exited':
    case 'killed':
      return task.exitCode ?? null;
    case 'failed_to_start':
      return 127;
    case 'lost':
      return 255;
    default:
      return null;
  }
}
