/**
 * State with the workflow fields (groups.json; tasks with after, group, timeoutSeconds; skipped and
 * timed_out tasks; a queued dependent behind a running task of its group), as this build wrote it
 * (test/golden/workflow/, a daemon stopped with task 5 running, which was then killed): a daemon
 * started on a copy reads it all, settles task 5, and then starts the queued dependent.
 */
import { cpSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { daemonsPerTest } from '../helpers/daemon.js';
import { HOME_TOKEN } from './expectations.js';

const newDaemon = daemonsPerTest(afterEach);

it('a daemon reads the workflow state and runs the queued dependent once its group has room', async () => {
  const d = newDaemon();
  const state = join(d.home, 'state');
  cpSync(join(import.meta.dirname, 'workflow', 'state'), state, { recursive: true });
  for (const f of readdirSync(state, { recursive: true, encoding: 'utf8' })) {
    const file = join(state, f);
    if (!f.endsWith('.json')) continue;
    writeFileSync(file, readFileSync(file, 'utf8').split(HOME_TOKEN).join(d.home));
  }
  await d.start();
  const w = await d.cli(['wait', '6', '--timeout', '10']);
  expect(w.code).toBe(0);
  expect((await d.cli(['output', '6'])).stdout).toBe('resumed\n');
  const tasks = JSON.parse((await d.cli(['ps', '--all', '--json'])).stdout) as Array<Record<string, unknown>>;
  const by = (id: string) => tasks.find((t) => t['id'] === id);
  expect(by('1')).toMatchObject({ status: 'exited', exitCode: 0, group: 'ci' });
  expect(by('3')).toMatchObject({ status: 'skipped', reason: 'dependency 2 exited 2', after: ['2'] });
  expect(by('4')).toMatchObject({ status: 'timed_out', reason: 'timed out after 0.3s', signal: 'SIGTERM', timeoutSeconds: 0.3 });
  // Killed while no daemon ran: settled from its exit file (lost on another boot, where its run info cannot match).
  expect(['killed', 'lost']).toContain(by('5')?.['status']);
  expect(by('6')).toMatchObject({ status: 'exited', after: ['1'], group: 'ci', timeoutSeconds: 60 });
  expect((await d.cli(['wait', '3'])).code).toBe(125);
  expect((await d.cli(['wait', '4'])).code).toBe(123);
  const groups = JSON.parse((await d.cli(['group', 'list', '--json'])).stdout) as Array<{ name: string; parallel: number }>;
  expect(groups.map((g) => g.name)).toEqual(['default', 'ci']);
  expect(groups[1]?.parallel).toBe(1);
  expect((await d.cli(['run', '--', 'true'])).stdout.trim()).toBe('7');
});
