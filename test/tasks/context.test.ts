/** Shutdown waits for the task service's background work (a task's end being recorded) before the last save. */
import { describe, expect, it } from 'vitest';
import { TaskContext } from '../../src/tasks/context.js';

const errors: unknown[] = [];
const context = () => new TaskContext({} as never, {} as never, {} as never, { error: (o: unknown) => errors.push(o) } as never, '/nonexistent', {} as never);
const later = (ms: number, then?: () => void) =>
  new Promise<void>((resolve) =>
    setTimeout(() => {
      then?.();
      resolve();
    }, ms),
  );

describe('TaskContext.drained', () => {
  it('waits for background work, and for the work it starts in turn', async () => {
    const c = context();
    const done: string[] = [];
    c.background(
      later(30, () => {
        done.push('end recorded');
        c.background(
          later(30, () => done.push('queue moved on')),
          '1',
          'x',
        );
      }),
      '1',
      'x',
    );
    await c.drained(5000);
    expect(done).toEqual(['end recorded', 'queue moved on']);
  });

  it('gives up after its bound, and a failed piece of work is logged, not thrown', async () => {
    const c = context();
    c.background(new Promise(() => undefined), '2', 'never ends');
    c.background(Promise.reject(new Error('disk full')), '3', 'recording failed');
    const t0 = Date.now();
    await c.drained(100);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(90);
    expect(Date.now() - t0).toBeLessThan(2000);
    expect(errors).toHaveLength(1);
  });
});
