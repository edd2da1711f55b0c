/**
 * A full disk, for real: the daemon's state directory is a 2 MiB tmpfs (root only; skipped with the
 * reason otherwise). A task that fills it must not take the daemon down; the state file keeps its
 * last good copy; requests that cannot save say ENOSPC and the file; nothing unsaved is served as
 * if it were saved; once there is room again, what the daemon still holds is saved.
 */
import { existsSync, readdirSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Memory } from '../../src/api/memory.js';
import type { TaskJson as Task } from '../../src/api/tasks.js';
import { readTaskState } from '../../src/tasks/state-journal.js';
import { spawnerOf, TestDaemon, until } from '../helpers/daemon.js';
import { cleanupFullDisk, EXIT_DISK_FULL, fill, fullDiskDaemon } from '../helpers/full-disk.js';

const daemons: TestDaemon[] = [];
afterEach(() => cleanupFullDisk(daemons));

const stateOnDisk = (d: TestDaemon) => readTaskState(d.paths.stateFile).data;
const taskOnDisk = (d: TestDaemon, id: string) => stateOnDisk(d).tasks.find((e) => e.task.id === id)?.task;

describe('a full disk', () => {
  it('a task that fills it: the daemon lives on, wait says the end is not saved, the state file keeps its last copy, the save is retried', async (ctx) => {
    const d = await fullDiskDaemon(ctx, daemons, { stallCheckSeconds: 0.2 });
    // Once its start is on disk (the go file), fills the disk, then sits at a prompt (an attention
    // change to save on a full disk), then exits 3. Without the go file the first save raced the fill.
    // A save appends the task's entry to the journal, and an append that fits in the journal's last
    // block succeeds on a full disk too: an unused argument (sh's $0) makes every entry larger than
    // a block (4 KiB), so each save after the disk filled needs a block it cannot have.
    const go = join(d.home, 'go');
    const script = `while [ ! -e ${go} ]; do sleep 0.05; done; head -c 4000000 /dev/zero; printf "Continue? [y/N] "; read x; exit 3`;
    const run = await d.cli(['run', '--stall-after', '1', '--', 'sh', '-c', script, 'x'.repeat(5000)]);
    expect(run.code).toBe(0);
    const id = run.stdout.trim();
    await until(() => taskOnDisk(d, id)?.state === 'running', 15_000, 50);
    writeFileSync(go, '');
    await until(async () => {
      const t = (await d.client.get(id)) as Task;
      return t.state === 'running' && t.attention?.kind === 'prompt';
    }, 15_000);
    const sent = await d.cli(['send', id, 'y']);
    expect(sent.code, sent.stderr).toBe(0);

    const waited = await d.cli(['wait', id]);
    expect(waited.code, waited.stderr).toBe(EXIT_DISK_FULL);
    expect(waited.stderr).toContain('ENOSPC');
    expect(waited.stderr).toContain(d.paths.stateFile);
    expect(waited.stderr).toMatch(/exit code 3/);

    // Still serving; the task has its end, marked as not saved yet.
    expect((await d.cli(['status'])).code).toBe(0);
    const shown = JSON.parse((await d.cli(['show', id, '--json'])).stdout) as Task & { saveError?: string };
    expect(shown).toMatchObject({ status: 'exited', exitCode: 3 });
    expect(shown.saveError).toContain('ENOSPC');
    expect((await d.cli(['show', id])).stdout).toMatch(/not saved.*ENOSPC/);

    // The last good copy, whole, and no temp files left beside it.
    expect(taskOnDisk(d, id)?.state).toBe('running');
    expect(readdirSync(d.paths.stateDir).filter((f) => f.endsWith('.tmp'))).toEqual([]);

    // Room again (the task's output is what filled it): saved without another request.
    truncateSync(join(d.paths.tasksDir, id, 'output.log'), 0);
    await until(() => taskOnDisk(d, id)?.state === 'finished', 20_000, 100);
    const after = JSON.parse((await d.cli(['show', id, '--json'])).stdout) as Task & { saveError?: string };
    expect(after.saveError).toBeUndefined();
    expect((await d.cli(['wait', id])).code).toBe(3);
    expect(d.log).not.toMatch(/unhandled|uncaught/i);
  }, 60_000);

  it('remember, run and ingest name ENOSPC and the file; a memory that was not saved is neither listed, recalled nor written later', async (ctx) => {
    const d = await fullDiskDaemon(ctx, daemons);
    expect((await d.cli(['remember', '--user', 'I prefer tabs over spaces'])).code).toBe(0);
    const filler = fill(d);

    const remembered = await d.cli(['remember', '--user', 'Deploys go out on Tuesdays only']);
    expect(remembered.code, remembered.stderr).toBe(EXIT_DISK_FULL);
    expect(remembered.stderr).toContain('ENOSPC');
    expect(remembered.stderr).toContain(join(d.paths.memoryDir, 'user.json'));
    const listed = JSON.parse((await d.cli(['memories', 'list', '--json'])).stdout) as Memory[];
    expect(listed.map((m) => m.content)).toEqual(['I prefer tabs over spaces']);
    expect((await d.cli(['recall', '--query', 'deploys tuesday'])).stdout).not.toContain('Tuesdays');

    const ran = await d.cli(['run', '--', 'true']);
    expect(ran.code, ran.stderr).toBe(EXIT_DISK_FULL);
    expect(ran.stderr).toContain('ENOSPC');
    expect(ran.stderr).toContain(d.paths.tasksDir);
    expect(readdirSync(d.paths.tasksDir)).toEqual([]);

    const transcript = join(d.home, 'session.jsonl');
    writeFileSync(transcript, `${JSON.stringify({ role: 'user', content: 'Remember that the staging database is called orion.' })}\n`);
    const ingested = await d.cli(['ingest', transcript, '--format', 'messages']);
    expect(ingested.code, ingested.stderr).toBe(EXIT_DISK_FULL);
    expect(ingested.stderr).toContain('ENOSPC');
    expect(ingested.stderr).toContain(d.paths.stateDir);

    // Room again: the next save writes what it saves, not the memory that failed.
    rmSync(filler);
    expect((await d.cli(['remember', '--user', 'Use pnpm, not npm'])).code).toBe(0);
    const file = JSON.parse(readFileSync(join(d.paths.memoryDir, 'user.json'), 'utf8')) as { memories: Memory[] };
    expect(file.memories.map((m) => m.content).sort()).toEqual(['I prefer tabs over spaces', 'Use pnpm, not npm']);
    const now = JSON.parse((await d.cli(['memories', 'list', '--json'])).stdout) as Memory[];
    expect(now.map((m) => m.content).sort()).toEqual(['I prefer tabs over spaces', 'Use pnpm, not npm']);
    // A run works again, and the daemon restarts on what is on disk.
    expect((await d.cli(['run', '--', 'true'])).code).toBe(0);
    await d.restart();
    const reloaded = JSON.parse((await d.cli(['memories', 'list', '--json'])).stdout) as Memory[];
    expect(reloaded.map((m) => m.content).sort()).toEqual(['I prefer tabs over spaces', 'Use pnpm, not npm']);
    expect(existsSync(d.paths.stateFile)).toBe(true);
  }, 60_000);

  it('a start whose wrapper finds the disk full cannot claim its task: failed to start, saying why, never left running', async (ctx) => {
    const d = await fullDiskDaemon(ctx, daemons);
    expect((await d.cli(['run', '--', 'true'])).code).toBe(0); // the spawner is up
    const spawner = await until(() => spawnerOf(d.proc?.pid ?? -1), 10_000);
    // The spawner held still: the start request is written, then the disk fills before a wrapper
    // claims the task.
    process.kill(spawner, 'SIGSTOP');
    const marker = join(d.home, 'ran');
    let filler = '';
    let ran: Promise<{ code: number; stderr: string }>;
    try {
      ran = d.cli(['run', '--', 'touch', marker]);
      await until(() => existsSync(join(d.paths.tasksDir, '2', 'start')), 10_000);
      filler = fill(d);
    } finally {
      process.kill(spawner, 'SIGCONT');
    }
    const r = await ran;
    const task = await until(async () => {
      const t = (await d.client.list(true)).find((x) => x.id === '2');
      return t?.state === 'finished' && t;
    }, 15_000);
    expect(task).toMatchObject({ status: 'failed_to_start' });
    expect(JSON.stringify(task)).toContain('could not write its wrapper file');
    expect(existsSync(marker)).toBe(false);
    // The run says so too, in words that point at the disk.
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toContain('task 2 failed to start: the task wrapper could not write its wrapper file');
    rmSync(filler);
  }, 60_000);
});
