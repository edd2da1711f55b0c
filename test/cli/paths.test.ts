import { mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Memory } from '../../src/api/memory.js';
import { daemonsPerTest, tempDirsPerTest } from '../helpers/daemon.js';

const newDaemon = daemonsPerTest(afterEach);
const tmp = tempDirsPerTest(afterEach, 'ns-projpath-');

describe('paths', () => {
  it("a relative --project is the caller's: resolved against its cwd, and --help says so; the API takes absolute ones only", async () => {
    const d = newDaemon();
    await d.start();
    const base = tmp();
    const cwd = join(base, 'a', 'b');
    mkdirSync(cwd, { recursive: true });
    const r = await d.cli(['remember', '--project', '../../etc', '--json', 'The etc dir holds config.'], { cwd });
    expect(r.code, r.stderr).toBe(0);
    expect((JSON.parse(r.stdout) as Memory).project).toBe(join(base, 'etc'));
    const list = JSON.parse((await d.cli(['memories', 'list', '--project', 'etc', '--json'], { cwd: base })).stdout) as Memory[];
    expect(list.map((m) => m.content)).toEqual(['The etc dir holds config.']);

    // A client that sends a relative path is refused: the daemon's cwd is not the caller's.
    await expect(d.client.remember({ content: 'x y z', scope: 'project', project: '../../etc', stable: false, type: 'note' })).rejects.toThrow(
      /project must be an absolute path/,
    );
    await expect(d.client.recall({ project: 'etc', episodes: true })).rejects.toThrow(/absolute path/);

    for (const cmd of [['remember'], ['recall'], ['memories', 'list'], ['search'], ['ingest']]) {
      expect((await d.cli([...cmd, '--help'])).stdout, cmd.join(' ')).toMatch(/--project <dir>[\s\S]*relative to the\s+current one/);
    }
  });

  it('a symlink loop is named as one (ELOOP), not "not found": ingest, run --cwd, run of a command path', async () => {
    const d = newDaemon();
    await d.start();
    const dir = tmp();
    const loop = join(dir, 'loop');
    symlinkSync(loop, loop);
    const ingest = await d.cli(['ingest', loop]);
    expect(ingest.code).toBe(2);
    expect(ingest.stderr).toContain(`transcript ${loop} is a symlink loop (ELOOP)`);
    const cwd = await d.cli(['run', '--cwd', loop, '--', 'true']);
    expect(cwd.code).toBe(2);
    expect(cwd.stderr).toContain(`working directory ${loop} is a symlink loop (ELOOP)`);
    const cmd = await d.cli(['run', '--cwd', dir, '--', './loop']);
    expect(cmd.code).toBe(2);
    expect(cmd.stderr).toContain('./loop is a symlink loop (ELOOP)');
    // Plain absence still reads as absence.
    expect((await d.cli(['ingest', join(dir, 'nothing.jsonl')])).stderr).toContain('transcript not found');
    expect((await d.cli(['run', '--cwd', join(dir, 'nothing'), '--', 'true'])).stderr).toContain('does not exist');
  });
});
