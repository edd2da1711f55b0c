/**
 * The task state on disk (snapshot + journal) through the registry that writes it and the loader a
 * daemon starts with: what a commit leaves is what the next start reads, whatever the moment it
 * was cut at; an old state file alone still loads; the journal stays small.
 */
import { appendFileSync, copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Task } from '../../src/api/tasks.js';
import { taskJson } from '../../src/api/task-json.js';
import { TaskRegistry } from '../../src/tasks/registry.js';
import { journalPath, readTaskState } from '../../src/tasks/state-journal.js';

const homes: string[] = [];
const opened: TaskRegistry[] = [];
afterEach(async () => {
  // Their journals' file handles; the files go with the home right after.
  for (const r of opened.splice(0)) await r.close().catch(() => undefined);
  for (const h of homes.splice(0)) rmSync(h, { recursive: true, force: true });
});

async function openRegistry(file: string): Promise<TaskRegistry> {
  const r = await TaskRegistry.open(file);
  opened.push(r);
  return r;
}

function stateFile(): string {
  const home = mkdtempSync('/tmp/ns-store-');
  homes.push(home);
  return join(home, 'tasks.json');
}

function finished(id: string, name = 'a task'): Task {
  const at = '2026-11-23T12:00:00.000Z';
  return {
    id,
    name,
    command: ['true'],
    cwd: '/',
    createdAt: at,
    stallAfterSeconds: 45,
    stdin: 'none',
    outputPath: `/nonexistent/${id}/output.log`,
    outputBytes: 0,
    state: 'finished',
    startedAt: at,
    endedAt: at,
    outcome: { kind: 'exited', exitCode: 0 },
  };
}

/** Adds `n` tasks, committing each as a `run` does; returns their ids. */
async function addTasks(r: TaskRegistry, n: number, name?: string): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const id = r.allocateId();
    r.set(finished(id, name));
    await r.commit();
    ids.push(id);
  }
  return ids;
}

const idsOf = (file: string) =>
  readTaskState(file)
    .data.tasks.map((e) => e.task.id)
    .sort((a, b) => Number(a) - Number(b));

describe('task state on disk', () => {
  it('a commit appends only what changed, and a restart reads snapshot + journal as they were left (no shutdown)', async () => {
    const file = stateFile();
    const r = await openRegistry(file);
    await addTasks(r, 3);
    const journal = readFileSync(journalPath(file), 'utf8').split('\n').filter(Boolean);
    expect(journal).toHaveLength(3); // one line per commit, not the whole list each time
    expect(existsSync(file)).toBe(false); // nothing rewritten yet
    r.delete('2');
    r.set({ ...finished('3'), outcome: { kind: 'exited', exitCode: 9 } } as Task);
    await r.commit();
    // As a daemon killed now would leave it: no close, no compaction.
    const again = await openRegistry(file);
    expect(again.list().map((e) => e.task.id)).toEqual(['1', '3']);
    expect(again.get('3')?.task).toMatchObject({ outcome: { exitCode: 9 } });
    expect(again.allocateId()).toBe('4');
  });

  it('a graceful close leaves one whole tasks.json (the format every release reads) and an empty journal', async () => {
    const file = stateFile();
    const r = await openRegistry(file);
    await addTasks(r, 4);
    await r.close();
    expect(statSync(journalPath(file)).size).toBe(0);
    const snapshot = JSON.parse(readFileSync(file, 'utf8')) as { version: number; nextId: number; tasks: unknown[] };
    expect(snapshot).toMatchObject({ version: 1, nextId: 5 });
    expect(snapshot.tasks).toHaveLength(4);
  });

  it('loads a state file without a journal, as earlier releases left it, and journals on top of it', async () => {
    const file = stateFile();
    writeFileSync(file, JSON.stringify({ version: 1, nextId: 8, tasks: [{ task: finished('7') }] }));
    const r = await openRegistry(file);
    expect(r.list().map((e) => e.task.id)).toEqual(['7']);
    expect(await addTasks(r, 1)).toEqual(['8']);
    expect(idsOf(file)).toEqual(['7', '8']);
  });

  it('drops a last line cut short (never acknowledged) and appends after it on a line of its own', async () => {
    const file = stateFile();
    const r = await openRegistry(file);
    await addTasks(r, 2);
    appendFileSync(journalPath(file), '{"nextId":4,"set":{"task":{"id":"3","na');
    expect(idsOf(file)).toEqual(['1', '2']);
    const again = await openRegistry(file);
    await addTasks(again, 1);
    expect(idsOf(file)).toEqual(['1', '2', '3']);
    expect(readFileSync(journalPath(file), 'utf8').split('\n').filter(Boolean)).toHaveLength(3);
  });

  it('refuses a journal with an unreadable line before its end, naming the file (as a corrupt state file)', async () => {
    const file = stateFile();
    const r = await openRegistry(file);
    await addTasks(r, 2);
    const lines = readFileSync(journalPath(file), 'utf8').split('\n');
    writeFileSync(journalPath(file), ['{"nextId": "garbage"}', ...lines.slice(1)].join('\n'));
    await expect(TaskRegistry.open(file)).rejects.toMatchObject({ code: 'state_corrupt', message: expect.stringContaining(journalPath(file)) });
  });

  it('compacts a journal grown past the snapshot; the old journal left beside the new snapshot is not replayed over it', async () => {
    const file = stateFile();
    const r = await openRegistry(file);
    const name = 'n'.repeat(2000); // ~2.3 KB a line: past 256 KiB in ~115 commits
    await addTasks(r, 100, name);
    const beforeCompaction = `${file}.journal-copy`;
    copyFileSync(journalPath(file), beforeCompaction);
    r.set({ ...finished('1', name), outcome: { kind: 'exited', exitCode: 9 } } as Task); // newer than what the copied journal says of task 1
    await r.commit();
    await addTasks(r, 30, name);
    expect(statSync(journalPath(file)).size).toBeLessThan(statSync(beforeCompaction).size); // it was compacted
    expect(JSON.parse(readFileSync(file, 'utf8')).tasks.length).toBeGreaterThan(100);
    const ids = idsOf(file);
    expect(ids).toHaveLength(130);
    // A daemon killed between the snapshot's rename and the journal's truncation: the old lines are still there.
    const after = readFileSync(journalPath(file));
    writeFileSync(journalPath(file), Buffer.concat([readFileSync(beforeCompaction), after]));
    expect(idsOf(file)).toEqual(ids);
    expect(readTaskState(file).data.nextId).toBe(131);
    expect(readTaskState(file).data.tasks.find((e) => e.task.id === '1')?.task).toMatchObject({ outcome: { exitCode: 9 } });
  });
});

describe('the flat status of earlier builds', () => {
  it('reads a snapshot and journal lines written with a flat status as state and outcome', () => {
    const file = stateFile();
    // As the build before state and outcome wrote them: `status` with the outcome's fields on the task.
    const flat = (id: string, rest: Record<string, unknown>) => ({
      id,
      name: null,
      command: ['true'],
      cwd: '/',
      createdAt: '2026-11-23T12:00:00.000Z',
      stallAfterSeconds: 45,
      stdin: 'closed',
      outputPath: `/nonexistent/${id}/output.log`,
      outputBytes: 0,
      ...rest,
    });
    const ended = { startedAt: '2026-11-23T12:00:00.000Z', endedAt: '2026-11-23T12:00:01.000Z' };
    writeFileSync(
      file,
      JSON.stringify({ version: 1, nextId: 3, tasks: [{ task: flat('1', { ...ended, status: 'killed', signal: 'SIGTERM', exitCode: 143 }) }], journal: 0 }),
    );
    const lines = [
      { nextId: 3, set: { task: flat('2', { ...ended, status: 'timed_out', signal: 'SIGTERM', reason: 'timed out after 1s' }) }, gen: 0 },
      { nextId: 4, set: { task: flat('3', { status: 'failed_to_start', endedAt: ended.endedAt, error: 'no such file' }) }, gen: 0 },
      { nextId: 5, set: { task: flat('4', { status: 'queued' }) }, gen: 0 },
    ];
    writeFileSync(journalPath(file), lines.map((l) => `${JSON.stringify(l)}\n`).join(''));
    const byId = new Map(readTaskState(file).data.tasks.map((e) => [e.task.id, e.task]));
    expect(byId.get('1')).toMatchObject({ state: 'finished', outcome: { kind: 'killed', signal: 'SIGTERM', exitCode: 143 } });
    expect(byId.get('1')).not.toHaveProperty('status');
    expect(byId.get('2')).toMatchObject({ state: 'finished', outcome: { kind: 'timed_out', signal: 'SIGTERM', reason: 'timed out after 1s' } });
    expect(byId.get('3')).toMatchObject({ state: 'finished', outcome: { kind: 'failed_to_start', error: 'no such file' } });
    expect(byId.get('4')).toMatchObject({ state: 'queued' });
    // And printed as before: the flat status and the outcome's fields beside state and outcome.
    expect(taskJson(byId.get('2')!)).toMatchObject({ status: 'timed_out', signal: 'SIGTERM', reason: 'timed out after 1s', state: 'finished' });
  });
});
