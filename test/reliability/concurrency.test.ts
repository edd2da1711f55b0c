import { afterEach, describe, expect, it } from 'vitest';
import { ApiClient } from '../../src/client/api-client.js';
import { TestDaemon, until } from '../helpers/daemon.js';
import { pool } from '../helpers/raw-http.js';

const daemons: TestDaemon[] = [];
afterEach(async () => {
  await Promise.all(daemons.splice(0).map((d) => d.cleanup()));
});

const PATH = process.env.PATH ?? '/usr/bin:/bin';
const CLIENTS = 50;
const DURATION_MS = 30_000;

describe('concurrent clients', () => {
  it(`serves ${CLIENTS} clients mixing run, output and ps for ${DURATION_MS / 1000} s without a single error`, async () => {
    const d = new TestDaemon();
    daemons.push(d);
    await d.start();
    const runs = new Map<string, string>(); // id -> the line it prints
    const errors: string[] = [];
    const counts = { run: 0, output: 0, ps: 0 };
    let readBytes = 0; // reads that returned data: an empty read checks nothing
    const deadline = Date.now() + DURATION_MS;

    const client = async (n: number) => {
      // Each client its own ApiClient, as separate processes would have.
      const c = new ApiClient({ socket: d.paths.socket });
      let i = 0;
      while (Date.now() < deadline) {
        i++;
        const dice = Math.random();
        const op = dice < 0.3 ? 'run' : dice < 0.65 ? 'output' : 'ps';
        try {
          if (op === 'run') {
            const line = `client ${n} run ${i}`;
            const t = await c.run({ command: ['echo', line], cwd: d.home, env: { PATH }, stdin: false });
            if (runs.has(t.id)) errors.push(`id ${t.id} handed out twice`);
            runs.set(t.id, `${line}\n`);
          } else if (op === 'output') {
            const ids = [...runs.keys()];
            const id = ids[Math.floor(Math.random() * ids.length)];
            if (id === undefined) continue;
            const offset = Math.floor(Math.random() * 4);
            const { data, meta } = await c.output(id, { offset, limit: 1 + Math.floor(Math.random() * 64) });
            const want = runs.get(id) ?? '';
            // Whatever has been written so far is a prefix of the line the task prints.
            if (!want.slice(offset).startsWith(data.toString())) errors.push(`task ${id}: read ${JSON.stringify(data.toString())} at ${offset}`);
            if (data.length > 0) readBytes += 1;
            if (meta.offset !== offset || meta.nextOffset !== offset + data.length) errors.push(`task ${id}: bad offsets ${JSON.stringify(meta)}`);
          } else {
            const all = Math.random() < 0.1;
            const known = [...runs.keys()]; // acknowledged before the request went out
            const tasks = await c.list(all);
            const ids = new Set(tasks.map((t) => t.id));
            if (ids.size !== tasks.length) errors.push('ps listed a task twice');
            if (all) {
              const absent = known.filter((id) => !ids.has(id));
              if (absent.length > 0) errors.push(`ps --all left out acknowledged tasks ${absent.slice(0, 5).join(' ')}`);
            } else {
              const finished = tasks.filter((t) => t.status !== 'running' && t.status !== 'queued');
              if (finished.length > 0)
                errors.push(
                  `ps listed finished tasks ${finished
                    .map((t) => `${t.id}:${t.status}`)
                    .slice(0, 5)
                    .join(' ')}`,
                );
            }
          }
          counts[op] += 1;
        } catch (err) {
          errors.push(`client ${n} ${op}: ${(err as Error).message}`);
        }
      }
    };
    await Promise.all(Array.from({ length: CLIENTS }, (_, n) => client(n)));

    expect(errors.slice(0, 20), `${errors.length} errors`).toEqual([]);
    expect(counts.run).toBeGreaterThan(100);
    expect(counts.output).toBeGreaterThan(100);
    expect(counts.ps).toBeGreaterThan(100);
    expect(readBytes).toBeGreaterThan(50);

    // Every acknowledged run is there, ran, and printed exactly its own line.
    await until(async () => (await d.client.list(false)).length === 0, 30_000, 100);
    const all = new Map((await d.client.list(true)).map((t) => [t.id, t] as const));
    const missing = [...runs.keys()].filter((id) => !all.has(id));
    expect(missing).toEqual([]);
    expect(all.size).toBe(runs.size);
    const wrong: string[] = [];
    await pool([...runs], 16, async ([id, line]) => {
      const t = all.get(id);
      if (t?.status !== 'exited' || t.exitCode !== 0)
        wrong.push(`task ${id}: ${t?.status} ${'exitCode' in (t ?? {}) ? (t as { exitCode: number }).exitCode : ''}`);
      const out = (await d.client.output(id)).data.toString();
      if (out !== line) wrong.push(`task ${id}: output ${JSON.stringify(out)}, want ${JSON.stringify(line)}`);
    });
    expect(wrong.slice(0, 20), `${wrong.length} tasks wrong`).toEqual([]);
  }, 120_000);
});
