import { readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Task } from '../../src/api/tasks.js';
import { journalPath } from '../../src/tasks/state-journal.js';
import { TestDaemon, until } from '../helpers/daemon.js';

const daemons: TestDaemon[] = [];
afterEach(async () => {
  await Promise.all(daemons.splice(0).map((d) => d.cleanup()));
});

const PATH = process.env.PATH ?? '/usr/bin:/bin';

/** Every file under `dir` with its size and mtime: to see that nothing was touched. */
function tree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else {
        const st = statSync(p);
        out[p.slice(dir.length)] = `${st.size}:${st.mtimeMs}`;
      }
    }
  };
  walk(dir);
  return out;
}

async function ended(d: TestDaemon, id: string): Promise<Task> {
  return until(async () => {
    const r = await d.client.wait(id, 5);
    return !r.timedOut && r.task;
  }, 20_000);
}

const corruptions: [string, (good: string) => string][] = [
  ['a torn write (truncated JSON)', (good) => good.slice(0, Math.floor(good.length / 2))],
  ['garbage bytes', () => '\u0000\u0001garbage{{{ not json'],
  ['valid JSON of the wrong shape', () => JSON.stringify({ version: 1, nextId: 'x', tasks: [{ task: { id: '../1' } }] })],
];

describe('corrupt state file', () => {
  for (const [what, corrupt] of corruptions) {
    it(`refuses to start on ${what}, leaves the file alone, and --recover rebuilds the tasks`, async () => {
      const d = new TestDaemon();
      daemons.push(d);
      await d.start();
      const run = (cmd: string) => d.client.run({ command: ['sh', '-c', cmd], cwd: d.home, env: { PATH }, stdin: false });
      const ok = await run('echo one; echo two');
      const fail = await run('echo bad >&2; exit 7');
      const killed = await run('echo sleeping; exec sleep 30');
      await until(async () => (await d.client.get(killed.id)).outputBytes > 0);
      await d.client.kill(killed.id, 'SIGTERM');
      const noRun = await run('echo gone; exit 4');
      for (const t of [ok, fail, killed, noRun]) await ended(d, t.id);
      expect(await d.stop('SIGTERM')).toBe(0);

      const good = readFileSync(d.paths.stateFile, 'utf8');
      const bad = corrupt(good);
      writeFileSync(d.paths.stateFile, bad);
      // What the task directories allow: without its run info (the wrapper's record of its pids;
      // run.json in earlier releases) a task's outcome is unknowable.
      rmSync(join(d.paths.tasksDir, noRun.id, 'wrapper'));
      const before = tree(d.paths.stateDir);

      const refused = await d.cli(['daemon'], { timeoutMs: 15_000 });
      expect(refused.code).toBe(78);
      expect(refused.stderr).toContain(d.paths.stateFile);
      expect(refused.stderr).toContain('--recover');
      // Nothing changed: not wiped, not rewritten, not moved aside, no task touched.
      expect(readFileSync(d.paths.stateFile, 'utf8')).toBe(bad);
      const after = tree(d.paths.stateDir);
      delete after['/daemon.lock.stale']; // the dead daemon's lock, taken over and dropped
      delete before['/daemon.lock.stale'];
      expect(after).toEqual(before);
      // And it does not serve.
      await expect(d.client.status()).rejects.toThrow(/not running/);

      await d.start(['--recover']);
      const aside = readdirSync(d.paths.stateDir).filter((f) => f.startsWith('tasks.json.corrupt-'));
      expect(aside).toHaveLength(1);
      expect(aside[0]).toMatch(/^tasks\.json\.corrupt-\d{4}-\d\d-\d\dT/);
      expect(readFileSync(join(d.paths.stateDir, aside[0] ?? ''), 'utf8')).toBe(bad);
      expect(() => JSON.parse(readFileSync(d.paths.stateFile, 'utf8'))).not.toThrow();

      const byId = new Map((await d.client.list(true)).map((t) => [t.id, t] as const));
      expect([...byId.keys()].sort()).toEqual([ok.id, fail.id, killed.id, noRun.id].sort());
      expect(byId.get(ok.id)).toMatchObject({ status: 'exited', exitCode: 0, command: ['sh', '-c', 'echo one; echo two'] });
      expect(byId.get(fail.id)).toMatchObject({ status: 'exited', exitCode: 7 });
      expect(byId.get(killed.id)).toMatchObject({ status: 'killed', signal: 'SIGTERM', exitCode: 143 });
      expect(byId.get(noRun.id)).toMatchObject({ status: 'lost' });
      expect((await d.client.output(ok.id)).data.toString()).toBe('one\ntwo\n');
      expect((await d.client.output(fail.id)).data.toString()).toBe('bad\n');
      expect((await d.cli(['wait', fail.id])).code).toBe(7);

      // It serves again: a new task gets a fresh id (no reuse of a recovered task's directory).
      const next = await run('echo after recovery');
      expect(Number(next.id)).toBeGreaterThan(Math.max(...[...byId.keys()].map(Number)));
      expect(await ended(d, next.id)).toMatchObject({ status: 'exited', exitCode: 0 });
      expect((await d.client.output(next.id)).data.toString()).toBe('after recovery\n');

      // The rebuilt file is a normal state file: a plain restart keeps everything.
      await d.restart();
      expect((await d.client.list(true)).map((t) => t.id).sort()).toEqual([...byId.keys(), next.id].sort());
    });
  }

  it('refuses to start on a journal line that does not parse before its end, and --recover moves the journal aside too', async () => {
    const d = new TestDaemon();
    daemons.push(d);
    await d.start();
    const t = await d.client.run({ command: ['sh', '-c', 'exit 6'], cwd: d.home, env: { PATH }, stdin: false });
    await ended(d, t.id);
    // Killed, so the journal is not folded into tasks.json.
    await d.stop('SIGKILL');
    const journal = journalPath(d.paths.stateFile);
    const bad = `{"nextId":"x"}\n${readFileSync(journal, 'utf8')}`;
    writeFileSync(journal, bad);

    const refused = await d.cli(['daemon'], { timeoutMs: 15_000 });
    expect(refused.code).toBe(78);
    expect(refused.stderr).toContain(journal);
    expect(refused.stderr).toContain('--recover');
    expect(readFileSync(journal, 'utf8')).toBe(bad);

    await d.start(['--recover']);
    const aside = readdirSync(d.paths.stateDir).filter((f) => f.startsWith('tasks.json.journal.corrupt-'));
    expect(aside).toHaveLength(1);
    expect(readFileSync(join(d.paths.stateDir, aside[0] ?? ''), 'utf8')).toBe(bad);
    expect(await d.client.get(t.id)).toMatchObject({ status: 'exited', exitCode: 6 });
  });

  it('names a corrupt config file and exits 78 without touching state', async () => {
    const d = new TestDaemon();
    daemons.push(d);
    writeFileSync(d.paths.configFile, '{"logLevel": "debug",');
    const r = await d.cli(['daemon'], { timeoutMs: 15_000 });
    expect(r.code).toBe(78);
    expect(r.stderr).toContain(d.paths.configFile);
  });
});
