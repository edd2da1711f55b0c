/** Tasks as the registry holds them, for unit tests of the task service's pure decisions. */
import type { Outcome, Task } from '../../src/api/tasks.js';
import type { Entry } from '../../src/tasks/model.js';

type Of<S extends Task['state']> = Extract<Task, { state: S }>;
type Extra = Partial<Omit<Of<'queued'>, 'state'>>;
type RunningExtra = Partial<Omit<Of<'running'>, 'state'>>;
type FinishedExtra = Partial<Omit<Of<'finished'>, 'state' | 'outcome'>>;

const base = (id: string) => ({
  id,
  name: null,
  command: ['true'],
  cwd: '/tmp',
  createdAt: '2026-01-01T00:00:00.000Z',
  stallAfterSeconds: 60,
  stdin: 'none' as const,
  outputPath: `/tmp/tasks/${id}/output.log`,
  outputBytes: 0,
});

export const queued = (id: string, extra: Extra = {}): Task => ({ ...base(id), ...extra, state: 'queued' }) as Task;

export const running = (id: string, extra: RunningExtra = {}): Task =>
  ({ ...base(id), ...extra, state: 'running', startedAt: '2026-01-01T00:00:01.000Z' }) as Task;

export const finished = (id: string, outcome: Outcome, extra: FinishedExtra = {}): Task =>
  ({ ...base(id), ...extra, state: 'finished', startedAt: '2026-01-01T00:00:01.000Z', endedAt: '2026-01-01T00:00:02.000Z', outcome }) as Task;

export const exited = (id: string, exitCode: number, extra: FinishedExtra = {}): Task => finished(id, { kind: 'exited', exitCode }, extra);

export const entries = (...tasks: Task[]): Entry[] => tasks.map((task) => ({ task }));
