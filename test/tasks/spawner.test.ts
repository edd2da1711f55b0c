/**
 * The spawner (src/tasks/spawner) through a real daemon: killed again and again in the middle of a
 * batch, it loses no task and starts none twice; a wrapper killed outright still gets its task
 * settled; an environment a shell cannot export still reaches the command.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import type { TaskJson as Task } from '../../src/api/tasks.js';
import { readStat } from '../../src/sys/proc.js';
import { daemonsPerTest, spawnerOf, tempDirsPerTest, until } from '../helpers/daemon.js';

const PATH = process.env.PATH ?? '/usr/bin:/bin';
const daemon = daemonsPerTest(afterEach);
const tempDir = tempDirsPerTest(afterEach, 'ns-spawner-');

const ended = (t: Task) => !['queued', 'running'].includes(t.status);

describe('the task spawner', () => {
  it('killed again and again mid-batch, loses no task and starts none twice', async () => {
    const d = daemon();
    await d.start();
    const dir = tempDir();
    const TASKS = 60;
    await d.client.addGroup('burst', 6);
    // Each task appends one line to its own file: two starts of one task would leave two.
    const lines = ['name: burst', 'tasks:'];
    for (let i = 0; i < TASKS; i++) lines.push(`  t${i}:`, `    command: [sh, -c, 'echo ran >> "$0"; sleep 0.05', ${join(dir, `t${i}`)}]`, '    group: burst');
    const file = join(dir, 'burst.yaml');
    writeFileSync(file, lines.join('\n') + '\n');
    const submitted = d.cli(['workflow', 'run', file, '--json']);
    const pid = d.proc?.pid as number;
    let kills = 0;
    for (let round = 0; round < 5; round++) {
      const spawner = await until(() => spawnerOf(pid), 10_000, 5);
      process.kill(spawner, 'SIGKILL');
      kills += 1;
      await sleep(120);
    }
    expect((await submitted).code).toBe(0);
    const tasks = await until(async () => {
      const all = (await d.client.list(true)).filter((t) => t.labels?.['workflow'] !== undefined);
      return all.length === TASKS && all.every(ended) && all;
    }, 60_000);
    expect(kills).toBe(5);
    expect(tasks.map((t) => [t.name, t.status, 'exitCode' in t ? t.exitCode : null])).toEqual(tasks.map((t) => [t.name, 'exited', 0]));
    for (let i = 0; i < TASKS; i++) expect(readFileSync(join(dir, `t${i}`), 'utf8'), `t${i}`).toBe('ran\n');
  });

  it('settles a task whose wrapper was killed outright as lost, and says why', async () => {
    const d = daemon();
    await d.start();
    const t = await d.client.run({ command: ['sleep', '30'], cwd: tempDir(), env: { PATH } });
    const command = 'pid' in t ? (t.pid as number) : 0;
    const wrapper = readStat(command)?.ppid as number;
    expect(readFileSync(`/proc/${wrapper}/cmdline`, 'utf8')).toContain('nightshift-spawner');
    process.kill(wrapper, 'SIGKILL');
    // Its command runs on, unrecorded; once it is gone too, the task is settled.
    await sleep(300);
    process.kill(-command, 'SIGKILL');
    const lost = await until(async () => {
      const x = await d.client.get(t.id);
      return ended(x) && x;
    }, 20_000);
    expect(lost).toMatchObject({ status: 'lost', reason: expect.stringContaining('wrapper was killed') });
  });

  it('gives the command an environment a shell cannot export (through env -i)', async () => {
    const d = daemon();
    await d.start();
    // `env` itself prints them (a shell would drop the odd name from what it passes on).
    const t = await d.client.run({ command: ['env'], cwd: tempDir(), env: { PATH, 'odd.name': 'a b', odd_plain: "it's" } });
    const done = (await d.client.wait(t.id, 10)).task;
    expect(done).toMatchObject({ status: 'exited', exitCode: 0 });
    const printed = readFileSync(t.outputPath, 'utf8')
      .split('\n')
      .filter((l) => l.startsWith('odd'));
    expect(printed.sort()).toEqual(['odd.name=a b', "odd_plain=it's"]);
    // The environment is not left on disk once the wrapper has read it.
    expect(existsSync(join(t.outputPath, '..', 'start'))).toBe(false);
  });
});
