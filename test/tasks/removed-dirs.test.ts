import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { rebuildEntries } from '../../src/tasks/rebuild-from-dirs.js';
import { deleteHiddenTaskDir, hideTaskDir, settleHiddenTaskDirs, unhideTaskDir } from '../../src/tasks/removed-dirs.js';
import { tempDirsPerTest } from '../helpers/daemon.js';

const tasksDir = tempDirsPerTest(afterEach, 'ns-taskdirs-');

/** A finished task's directory: its meta and its output. */
function taskDir(root: string, id: string): void {
  const dir = join(root, id);
  mkdirSync(dir);
  writeFileSync(
    join(dir, 'meta.json'),
    JSON.stringify({ id, name: 'x', command: ['true'], cwd: '/', createdAt: new Date().toISOString(), stallAfterSeconds: 45, stdin: false }),
  );
  writeFileSync(join(dir, 'output.log'), 'out\n');
}

const rebuilt = (root: string) => rebuildEntries(root).map((e) => e.task.id);

describe("a removed task's directory", () => {
  it('is out of sight once hidden, back when the removal fails, and gone once deleted', async () => {
    const root = tasksDir();
    taskDir(root, '7');
    expect(await hideTaskDir(root, '7')).toBe(true);
    expect(rebuilt(root)).toEqual([]);
    await unhideTaskDir(root, '7');
    expect(rebuilt(root)).toEqual(['7']);
    await hideTaskDir(root, '7');
    await deleteHiddenTaskDir(root, '7');
    expect(readdirSync(root)).toEqual([]);
    expect(await hideTaskDir(root, '7')).toBe(false); // nothing left to hide
  });

  it('left hidden by a killed daemon goes back when the state still lists the task, and is deleted when it does not', async () => {
    const root = tasksDir();
    for (const id of ['3', '4', '5']) taskDir(root, id);
    await hideTaskDir(root, '4'); // killed before the state dropped task 4
    await hideTaskDir(root, '5'); // killed after the state dropped task 5, in the middle of the delete
    rmSync(join(root, '.removed-5', 'meta.json'));
    settleHiddenTaskDirs(root, (id) => id !== '5');
    expect(readdirSync(root).sort()).toEqual(['3', '4']);
    expect(existsSync(join(root, '4', 'output.log'))).toBe(true);
  });
});
