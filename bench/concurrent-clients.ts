/**
 * Concurrent clients: 50 `nightshift remember`s and 50 `nightshift run -- true`s through the built
 * CLI against one real daemon (temporary NIGHTSHIFT_HOME), once one after another and once all 50 at
 * the same time, side by side in one run. The figure is the wall time of the parallel batch over the
 * sequential one (target ≤ 2: the daemon serialises no more than it must); for `run`, until every
 * task has ended. Each batch runs in a project directory of its own, so neither sees the other's
 * memories. The same batches through the API client in this process (no CLI start-up) show what is
 * the daemon's share of the time.
 *
 * `npm run bench -- concurrent-clients` (or `npx tsx bench/run.ts concurrent-clients` after `npm run build`).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { tempDir } from './lib/cleanup.js';
import { type BenchDaemon, waitEnded, withDaemon } from './lib/daemon.js';
import { CLI, timeNode } from './lib/spawn.js';
import { median } from './lib/stats.js';
import { atMost, info, type Bench, type Figure } from './lib/types.js';

const N = 50;
const QUICK_N = 10;

type Batch = { wallMs: number; cliMs: number[] };

async function cliOk(d: BenchDaemon, args: string[]): Promise<{ ms: number; stdout: string }> {
  const r = await timeNode([CLI, ...args], d.cliEnv, 120_000);
  if (r.code !== 0) throw new Error(`nightshift ${args.join(' ')} exited ${r.code}: ${r.stderr.trim().slice(0, 500)}`);
  return r;
}

async function batch(
  n: number,
  parallel: boolean,
  one: (i: number) => Promise<{ ms: number }>,
  after: () => Promise<void> = async () => undefined,
): Promise<Batch> {
  const t0 = performance.now();
  const cliMs: number[] = [];
  if (parallel) cliMs.push(...(await Promise.all(Array.from({ length: n }, (_, i) => one(i)))).map((r) => r.ms));
  else for (let i = 0; i < n; i++) cliMs.push((await one(i)).ms);
  await after();
  return { wallMs: performance.now() - t0, cliMs };
}

/** Through the CLI, or (`api`) the API client in this process. */
async function remembers(d: BenchDaemon, root: string, n: number, parallel: boolean, api = false): Promise<Batch> {
  const dir = join(root, `${api ? 'api-' : ''}${parallel ? 'parallel' : 'sequential'}`);
  // A real repository: a remember there looks for what it names in it (one `git ls-files`).
  mkdirSync(dir, { recursive: true });
  execFileSync('git', ['init', '-q'], { cwd: dir, stdio: 'ignore' });
  const text = (i: number) => `Service number ${i} of the ${parallel ? 'fleet' : 'cluster'} listens on port ${9000 + i}.`;
  const viaApi = async (i: number) => {
    const t0 = performance.now();
    await d.client.remember({ content: text(i), scope: 'project', project: dir, stable: false });
    return { ms: performance.now() - t0 };
  };
  const r = await batch(n, parallel, api ? viaApi : (i) => cliOk(d, ['remember', '--project', dir, text(i)]));
  const listed = JSON.parse((await cliOk(d, ['memories', 'list', '--project', dir, '--scope', 'project', '--limit', '1000', '--json'])).stdout) as unknown[];
  if (listed.length !== n) throw new Error(`${listed.length} of ${n} memories stored (${parallel ? 'parallel' : 'sequential'})`);
  return r;
}

async function runs(d: BenchDaemon, n: number, parallel: boolean, api = false): Promise<Batch> {
  const ids: string[] = [];
  return batch(
    n,
    parallel,
    async () => {
      if (api) {
        const t0 = performance.now();
        ids.push((await d.client.run({ command: ['true'], cwd: d.paths.stateDir })).id);
        return { ms: performance.now() - t0 };
      }
      const r = await cliOk(d, ['run', '--', 'true']);
      ids.push(r.stdout.trim());
      return r;
    },
    async () => {
      for (const id of ids) {
        const t = await waitEnded(d.client, id);
        if (t.status !== 'exited' || t.exitCode !== 0) throw new Error(`task ${id} ended ${t.status}`);
      }
    },
  );
}

function figures(what: string, seq: Batch, par: Batch, n: number): Figure[] {
  return [
    info(`${what}: ${n} one after another, wall`, seq.wallMs / 1000, 's', `median CLI ${Math.round(median(seq.cliMs))} ms`),
    info(`${what}: ${n} in parallel, wall`, par.wallMs / 1000, 's', `median CLI ${Math.round(median(par.cliMs))} ms`),
    atMost(`${what}: parallel / sequential wall time`, par.wallMs / seq.wallMs, '×', 2),
  ];
}

export const concurrentClients: Bench = {
  name: 'concurrent-clients',
  title: '50 parallel CLI remembers and runs against one daemon, beside the same work one after another',
  budgetSeconds: 300,
  async run(o, say) {
    const n = o.quick ? QUICK_N : N;
    const tmp = tempDir('ns-bench-conc-');
    try {
      return await withDaemon({ dream: { schedule: false }, transcripts: { watch: false } }, async (d) => {
        // One of each first: the daemon's lazy parts (the spawner, the memory store) are up before timing.
        await cliOk(d, ['run', '--', 'true']);
        await cliOk(d, ['remember', '--user', 'Warm-up note for the bench.']);
        const rs = await remembers(d, tmp.dir, n, false);
        const rp = await remembers(d, tmp.dir, n, true);
        say(`remember: sequential ${Math.round(rs.wallMs)} ms, parallel ${Math.round(rp.wallMs)} ms`);
        const us = await runs(d, n, false);
        const up = await runs(d, n, true);
        say(`run: sequential ${Math.round(us.wallMs)} ms, parallel ${Math.round(up.wallMs)} ms`);
        const daemonShare = [
          ['remember', await remembers(d, tmp.dir, n, false, true), await remembers(d, tmp.dir, n, true, true)],
          ['run', await runs(d, n, false, true), await runs(d, n, true, true)],
        ] as const;
        return [
          ...figures('remember', rs, rp, n),
          ...figures('run -- true', us, up, n),
          ...daemonShare.flatMap(([what, seq, par]) => [
            info(`${what} through the API: ${n} one after another, wall`, seq.wallMs / 1000, 's'),
            info(`${what} through the API: ${n} in parallel, wall`, par.wallMs / 1000, 's'),
          ]),
        ];
      });
    } finally {
      tmp.remove();
    }
  },
};
