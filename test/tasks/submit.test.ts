import { describe, expect, it } from 'vitest';
import { restartRequest } from '../../src/tasks/submit.js';
import { exited, running } from '../helpers/task-fixtures.js';

describe('what a restart asks for', () => {
  const env = { PATH: '/bin' };

  it("takes the finished task's command and options with the caller's environment, not its dependencies", () => {
    const old = exited('7', 1, {
      name: 'build',
      command: ['make'],
      cwd: '/src',
      stdin: 'closed',
      stallAfterSeconds: 30,
      group: 'gpu',
      timeoutSeconds: 60,
      labels: { ci: '1' },
      after: ['3'],
      retries: 1,
      attempt: 3,
      retryDelaySeconds: 5,
    });
    expect(restartRequest(old, env, () => true)).toEqual({
      command: ['make'],
      cwd: '/src',
      env,
      stdin: true,
      stallAfterSeconds: 30,
      name: 'build',
      group: 'gpu',
      timeoutSeconds: 60,
      labels: { ci: '1' },
      // The third attempt with one run left was first given --retry 3.
      retry: 3,
      retryDelaySeconds: 5,
    });
  });

  it('drops a group that no longer exists, and refuses a task that has not finished', () => {
    expect(restartRequest(exited('7', 0, { group: 'gone' }), env, () => false)).not.toHaveProperty('group');
    expect(() => restartRequest(running('7'), env, () => true)).toThrow(/task 7 is running; kill it/);
  });
});
