/**
 * A `wait` that answers means the task's end is on disk: a daemon killed (SIGKILL) right after the
 * answer restarts knowing that end as it was answered, not a re-derived one. The state file is made
 * large (many finished tasks) so that its write takes long enough for a poll to land inside it.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isFinished, type Task } from '../../src/api/tasks.js';
import { daemonsPerTest } from '../helpers/daemon.js';

const daemon = daemonsPerTest(afterEach);
const PATH = process.env.PATH ?? '/usr/bin:/bin';

function bigState(file: string, count: number): void {
  const at = new Date().toISOString();
  const tasks = Array.from({ length: count }, (_, i) => ({
    task: {
      id: String(i + 1),
      name: `old task ${i + 1} with a name long enough to make the file heavy`,
      command: ['sh', '-c', `echo finished long ago number ${i + 1}`],
      cwd: '/',
      createdAt: at,
      stallAfterSeconds: 45,
      stdin: 'none',
      outputPath: `/nonexistent/${i + 1}/output.log`,
      outputBytes: 0,
      status: 'exited',
      pid: 100_000 + i,
      startedAt: at,
      endedAt: at,
      exitCode: 0,
    },
  }));
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify({ version: 1, nextId: count + 1, tasks }));
}

describe('wait and durability', () => {
  it('the end a wait answered with is the end on disk, even with the daemon SIGKILLed right after', async () => {
    const d = daemon();
    bigState(d.paths.stateFile, 20_000);
    await d.start();
    for (let round = 0; round < 2; round++) {
      const started = await d.client.run({ command: ['sleep', '0.3'], cwd: '/', env: { PATH } });
      // Poll with no wait at all, so an answer comes the moment the daemon counts the task as ended.
      let answered: Task | undefined;
      while (!answered) {
        const r = await d.client.wait(started.id, 0);
        if (isFinished(r.task)) answered = r.task;
      }
      d.proc?.kill('SIGKILL');
      await new Promise((r) => d.proc?.once('exit', r));
      await d.start();
      const shown = await d.client.get(started.id);
      expect(shown.status).toBe('exited');
      // Re-derived after the restart, the end would carry the restart's time.
      expect('endedAt' in shown && shown.endedAt).toBe('endedAt' in answered && answered.endedAt);
    }
  }, 120_000);
});
