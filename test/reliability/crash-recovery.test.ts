import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import type { TaskJson as Task } from '../../src/api/tasks.js';
import type { StateData } from '../../src/tasks/model.js';
import { journalPath, readTaskState } from '../../src/tasks/state-journal.js';
import { TestDaemon, until, daemonsPerTest } from '../helpers/daemon.js';
import { pool } from '../helpers/raw-http.js';

const daemon = daemonsPerTest(afterEach);

const PATH = process.env.PATH ?? '/usr/bin:/bin';

/** Reads a task's whole output through the API, however many reads it takes. */
async function readOutput(d: TestDaemon, id: string): Promise<string> {
  let offset = 0;
  const parts: Buffer[] = [];
  for (;;) {
    const { data, meta } = await d.client.output(id, { offset });
    parts.push(data);
    offset = meta.nextOffset;
    if (data.length === 0 || offset >= meta.size) return Buffer.concat(parts).toString('utf8');
  }
}

/** The state on disk right now (the state file and its journal): must always load. */
function readStateFile(d: TestDaemon): StateData {
  return readTaskState(d.paths.stateFile).data;
}

describe('crash recovery', () => {
  it('recovers every output byte and exit code of 20 writing tasks after kill -9 of the daemon', async () => {
    const d = daemon();
    await d.start();
    const TASKS = 20;
    const ROUNDS = 20;
    const PER_ROUND = 50;
    // ~2 s per task: 20 rounds of 50 numbered lines, 0.1 s apart; task k exits with 3+k.
    const script = (k: number) =>
      `n=0; r=0; while [ $r -lt ${ROUNDS} ]; do r=$((r+1)); j=0; ` +
      `while [ $j -lt ${PER_ROUND} ]; do j=$((j+1)); n=$((n+1)); echo "task ${k} line $n"; done; sleep 0.1; done; exit ${3 + k}`;
    const expected = (k: number) => Array.from({ length: ROUNDS * PER_ROUND }, (_, i) => `task ${k} line ${i + 1}\n`).join('');
    const tasks = await Promise.all(
      Array.from({ length: TASKS }, (_, k) => d.client.run({ command: ['sh', '-c', script(k)], cwd: d.home, env: { PATH }, stdin: false })),
    );
    // Every task is writing before the daemon dies.
    await until(async () => (await d.client.list(true)).every((t) => t.state === 'running' && t.outputBytes > 0), 10_000);
    await sleep(300);

    expect(await d.stop('SIGKILL')).toBeNull();
    const unfinished = tasks.filter((t) => !existsSync(join(d.paths.tasksDir, t.id, 'exit')));
    // The kill really happened mid-write (else this test proves nothing).
    expect(unfinished.length).toBeGreaterThan(TASKS / 2);
    await sleep(300); // tasks keep writing while no daemon runs

    await d.start();
    const ended = await pool(tasks, TASKS, (t) =>
      until(async () => {
        const r = await d.client.wait(t.id, 5);
        return !r.timedOut && r.task;
      }, 30_000),
    );
    for (const [k, t] of ended.entries()) {
      expect({ id: t.id, status: t.status, exitCode: 'exitCode' in t ? t.exitCode : null }).toEqual({
        id: tasks[k]?.id,
        status: 'exited',
        exitCode: 3 + k,
      });
      const out = await readOutput(d, t.id);
      expect(out.length).toBe(expected(k).length);
      expect(out === expected(k), `output of task ${t.id} differs`).toBe(true);
      expect(t.outputBytes).toBe(Buffer.byteLength(expected(k)));
    }
  });

  it('keeps what only the journal holds through kill -9: acknowledged runs and ends, a removal; a stop then folds it into tasks.json', async () => {
    const d = daemon();
    await d.start();
    const run = (cmd: string) => d.client.run({ command: ['sh', '-c', cmd], cwd: d.home, env: { PATH }, stdin: false });
    const gone = await run('exit 0');
    await d.client.wait(gone.id, 10);
    await d.client.remove(gone.id);
    const done = await run('echo done; exit 5');
    expect((await d.client.wait(done.id, 10)).task).toMatchObject({ status: 'exited', exitCode: 5 });
    const long = await run('sleep 30');
    // A fresh daemon has written no tasks.json yet: all of this is in the journal alone.
    expect(existsSync(d.paths.stateFile)).toBe(false);
    expect(await d.stop('SIGKILL')).toBeNull();

    await d.start();
    const byId = new Map((await d.client.list(true)).map((t) => [t.id, t] as const));
    expect([...byId.keys()].sort()).toEqual([done.id, long.id].sort());
    expect(byId.get(done.id)).toMatchObject({ status: 'exited', exitCode: 5 });
    expect(long.status).toBe('running');
    expect(byId.get(long.id)).toMatchObject({ status: 'running', pid: long.state === 'running' ? long.pid : -1 });
    await d.client.kill(long.id, 'SIGKILL');
    await d.client.wait(long.id, 10);
    expect((await d.client.run({ command: ['true'], cwd: d.home, env: { PATH }, stdin: false })).id).toBe(String(Number(long.id) + 1));

    expect(await d.stop('SIGTERM')).toBe(0);
    const snapshot = JSON.parse(readFileSync(d.paths.stateFile, 'utf8')) as StateData;
    expect(snapshot.tasks.map((e) => e.task.id).sort()).toEqual([done.id, long.id, String(Number(long.id) + 1)].sort());
    expect(readFileSync(journalPath(d.paths.stateFile), 'utf8')).toBe('');
  });

  it('keeps the state file whole and every acknowledged task through repeated kill -9 during run and rm', async () => {
    const d = daemon();
    await d.start();
    const KILLS = 6;
    const acked = new Map<string, string>(); // id -> marker it prints
    const rmAttempted = new Set<string>(); // an rm was sent: the task may be gone
    const removed = new Set<string>(); // rm acknowledged: the task must be gone
    let stop = false;
    let seq = 0;
    const marker = () => `m-${process.pid}-${++seq}`;

    const problems: string[] = [];
    const noteRun = (id: string, m: string) => {
      if (!/^[1-9][0-9]*$/.test(id)) problems.push(`run acknowledged with a bad id: ${JSON.stringify(id)}`);
      else if (acked.has(id)) problems.push(`id ${id} acknowledged twice (${acked.get(id)} and ${m})`);
      else acked.set(id, m);
    };
    // Tasks are added through the CLI and, faster, through the typed client.
    const cliRunner = async () => {
      while (!stop) {
        const m = marker();
        const r = await d.cli(['run', '--', 'echo', m]);
        if (r.code === 0) noteRun(r.stdout.trim(), m);
        else await sleep(30);
      }
    };
    const apiRunner = async () => {
      while (!stop) {
        const m = marker();
        try {
          noteRun((await d.client.run({ command: ['echo', m], cwd: d.home, env: { PATH } })).id, m);
        } catch {
          await sleep(30);
        }
      }
    };
    const remover = async () => {
      while (!stop) {
        const candidates = [...acked.keys()].filter((id) => !rmAttempted.has(id));
        const id = candidates[Math.floor(Math.random() * candidates.length)];
        if (id === undefined) {
          await sleep(20);
          continue;
        }
        rmAttempted.add(id);
        const r = await d.cli(['rm', id]);
        if (r.code === 0) removed.add(id);
        // Refused (still running), or never delivered (no daemon): the task stays. Else: unknown.
        else if (/is (running|queued)|daemon is not running/.test(r.stderr)) rmAttempted.delete(id);
        if (r.code !== 0) await sleep(30);
      }
    };

    const workers = [cliRunner(), cliRunner(), apiRunner(), apiRunner(), remover(), remover()];
    try {
      for (let k = 0; k < KILLS; k++) {
        await sleep(400 + Math.random() * 400);
        await d.stop('SIGKILL');
        // Whatever moment the daemon died at, the file on disk is whole.
        expect(() => readStateFile(d)).not.toThrow();
        await sleep(50 + Math.random() * 100);
        await d.start();
        expect(() => readStateFile(d)).not.toThrow();

        const ackedBefore = [...acked.keys()];
        const removedBefore = [...removed];
        const listed = new Set((await d.client.list(true)).map((t) => t.id));
        // rmAttempted is read after the listing: an rm sent meanwhile may explain a missing task.
        const missing = ackedBefore.filter((id) => !listed.has(id) && !rmAttempted.has(id));
        expect(missing, `acknowledged tasks missing after kill ${k + 1}`).toEqual([]);
        const back = removedBefore.filter((id) => listed.has(id));
        expect(back, `removed tasks back after kill ${k + 1}`).toEqual([]);
      }
    } finally {
      stop = true;
      await Promise.all(workers);
    }
    expect(problems).toEqual([]);
    expect(acked.size).toBeGreaterThan(20);
    expect(removed.size).toBeGreaterThan(2);

    // Every surviving acknowledged task ran its own command exactly once, in its own directory.
    const all = new Map((await d.client.list(true)).map((t) => [t.id, t] as const));
    // And nothing runs unseen: a task the daemon started but died before confirming is listed too.
    // (Only a directory whose task never started, left by a kill between mkdir and spawn, may be unlisted.)
    const unseen = readdirSync(d.paths.tasksDir).filter(
      (id) => !all.has(id) && ['run.json', 'child.pid', 'output.log'].some((f) => existsSync(join(d.paths.tasksDir, id, f))),
    );
    expect(unseen, 'started tasks missing from the list').toEqual([]);
    const survivors = [...acked].filter(([id]) => !rmAttempted.has(id));
    for (const [id] of survivors) expect(all.has(id), `task ${id} missing at the end`).toBe(true);
    const settled = await pool(survivors, 8, async ([id, m]) => {
      const t: Task = await until(async () => {
        const r = await d.client.wait(id, 5);
        return !r.timedOut && r.task;
      }, 20_000);
      return { id, status: t.status, exitCode: 'exitCode' in t ? t.exitCode : null, output: await readOutput(d, id), want: `${m}\n` };
    });
    for (const s of settled) {
      expect({ id: s.id, status: s.status, exitCode: s.exitCode, output: s.output }).toEqual({ id: s.id, status: 'exited', exitCode: 0, output: s.want });
    }
  });
});
