/**
 * A group's parallel limit under load: 500 tasks of ~50 ms (`sleep 0.05NNNN`, an argv no other
 * process has) queued at once in a group with parallel 4. How many run is sampled every 10 ms from
 * /proc, independently of the daemon: the live processes with exactly that argv (the command itself,
 * exec'd by setsid under the wrapper). Max must be ≤ 4. The daemon's CPU (utime+stime of
 * /proc/<pid>/stat, and schedstat) over the run gives its CPU per task; then over 10 s idle after
 * the queue drained, which must be ≤ 1 % of a core. Peer, same run: task-spooler with `-S 4`, its
 * server's CPU the same way (its per-job clients are separate processes, not counted).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { spawnSync } from 'node:child_process';
import type { ApiClient } from '../src/client/api-client.js';
import { tempDir } from './lib/cleanup.js';
import { withDaemon } from './lib/daemon.js';
import { countByArgv, cpu, cpuDelta, pidFloor, type CpuSample } from './lib/proc.js';
import { fmt, median } from './lib/stats.js';
import { findTsp, startTsp } from './lib/tsp.js';
import { atMost, info, type Bench, type Figure } from './lib/types.js';

const TASKS = 500;
const PARALLEL = 4;
const SAMPLE_MS = 10;
/** Nightshift's wall time over tsp's for the same queue: the bound cli-speed holds `run` to. */
const PEER_RATIO = 1.3;

interface Sampled {
  max: number;
  samples: number;
  /** Median gap between samples, as achieved. */
  gapMs: number;
  wallMs: number;
  run: CpuSample;
  idle: CpuSample;
  idleMs: number;
}

/** Samples the count until `done` resolves; then measures `pid`'s CPU over `idleSeconds`. */
async function sample(argv: string[], floor: number, pid: number, submit: () => Promise<() => Promise<void>>, idleSeconds: number): Promise<Sampled> {
  const c0 = cpu(pid);
  const t0 = Date.now();
  let stop = false;
  let max = 0;
  const at: number[] = [];
  const sampler = (async () => {
    while (!stop) {
      max = Math.max(max, countByArgv(argv, floor));
      at.push(performance.now());
      await sleep(SAMPLE_MS);
    }
  })();
  try {
    const drained = await submit();
    await drained();
  } finally {
    stop = true;
    await sampler;
  }
  const wallMs = Date.now() - t0;
  const c1 = cpu(pid);
  const i0 = Date.now();
  await sleep(idleSeconds * 1000);
  const idle = cpuDelta(c1, cpu(pid));
  const gaps = at.slice(1).map((x, i) => x - (at[i] as number));
  return { max, samples: at.length, gapMs: median(gaps), wallMs, run: cpuDelta(c0, c1), idle, idleMs: Date.now() - i0 };
}

async function drainGroup(client: ApiClient, group: string): Promise<void> {
  for (;;) {
    const g = (await client.groups()).find((x) => x.name === group);
    if (g && g.running === 0 && g.queued === 0) return;
    await sleep(50);
  }
}

const marker = () => `0.05${String(Math.floor(Math.random() * 1e6)).padStart(6, '0')}`;

export const groupLimit: Bench = {
  name: 'group-limit',
  title: `${TASKS} × 50 ms tasks in a group of parallel ${PARALLEL}: running count from /proc, daemon CPU per task and idle, next to tsp -S ${PARALLEL}`,
  budgetSeconds: 300,
  async run(o, say) {
    const idleSeconds = o.quick ? 3 : 10;
    const work = tempDir('ns-bench-group-');
    const PATH = process.env['PATH'] ?? '/usr/bin:/bin';
    try {
      const ns = await withDaemon({}, async ({ client, pid }) => {
        await client.addGroup('four', PARALLEL);
        const argv = ['sleep', marker()];
        const floor = pidFloor(spawnSync('true').pid ?? 0);
        return sample(
          argv,
          floor,
          pid,
          async () => {
            // 12 requests in flight, as the idle-tasks bench submits.
            for (let i = 0; i < TASKS; i += 12)
              await Promise.all(
                Array.from({ length: Math.min(12, TASKS - i) }, () => client.run({ command: argv, cwd: work.dir, env: { PATH }, stdin: false, group: 'four' })),
              );
            return async () => {
              await drainGroup(client, 'four');
              const bad = (await client.list(true, { group: 'four' })).filter((t) => t.status !== 'exited' || t.exitCode !== 0);
              if (bad.length) throw new Error(`${bad.length} tasks did not exit 0 (first: ${bad[0]?.id} ${bad[0]?.status})`);
            };
          },
          idleSeconds,
        );
      });
      const tsp = findTsp({ PATH });
      let peer: Sampled | undefined;
      if ('missing' in tsp) say(`SKIPPED the tsp figures: ${tsp.missing}`);
      else {
        const server = await startTsp(tsp.bin, work.dir, PARALLEL, TASKS, { PATH });
        try {
          say(`peer: ${server.bin} (${server.version}), its own server (pid ${server.pid}), -S ${PARALLEL}`);
          const argv = ['sleep', marker()];
          const floor = pidFloor(spawnSync('true').pid ?? 0);
          peer = await sample(
            argv,
            floor,
            server.pid,
            async () => {
              let last = '';
              for (let i = 0; i < TASKS; i++) last = await server.add(argv);
              return async () => {
                // Jobs run in order with one slot each: the last one ends last (or all but 3 have).
                if ((await server.wait(last)) !== 0) throw new Error(`tsp job ${last} did not exit 0`);
                while (countByArgv(argv, floor) > 0) await sleep(10);
              };
            },
            idleSeconds,
          );
        } finally {
          server.stop();
        }
      }
      const line = (name: string, s: Sampled) =>
        `${name}: at most ${s.max} running over ${s.samples} samples (median gap ${fmt(s.gapMs)} ms); ${TASKS} tasks in ${fmt(s.wallMs / 1000)} s; ` +
        `CPU over the run ${fmt(s.run.statMs)} ms stat (${fmt(s.run.schedMs)} ms schedstat), idle ${fmt(s.idleMs / 1000)} s: ${fmt(s.idle.statMs)} ms stat (${fmt(s.idle.schedMs)} ms schedstat)`;
      say(line('nightshift daemon', ns));
      if (peer) say(line('tsp server', peer));
      const figs: Figure[] = [
        atMost(`nightshift: most tasks running at once (/proc, every ${SAMPLE_MS} ms)`, ns.max, '', PARALLEL),
        atMost(`nightshift daemon CPU over ${idleSeconds} s idle (stat, % of a core)`, (100 * ns.idle.statMs) / ns.idleMs, '%', 1),
        info('same from schedstat', (100 * ns.idle.schedMs) / ns.idleMs, '%'),
        info('nightshift daemon CPU per task during the run (stat)', ns.run.statMs / TASKS, 'ms', `schedstat ${fmt(ns.run.schedMs / TASKS)} ms`),
        info(`nightshift wall for ${TASKS} tasks (ideal ${(TASKS / PARALLEL) * 0.05} s)`, ns.wallMs / 1000, 's'),
      ];
      if (peer)
        figs.push(
          info('tsp: most jobs running at once (/proc)', peer.max, ''),
          info(`tsp server CPU over ${idleSeconds} s idle (stat)`, (100 * peer.idle.statMs) / peer.idleMs, '%'),
          info('tsp server CPU per job during the run (stat)', peer.run.statMs / TASKS, 'ms', `schedstat ${fmt(peer.run.schedMs / TASKS)} ms`),
          info(`tsp wall for ${TASKS} jobs`, peer.wallMs / 1000, 's'),
          atMost('wall nightshift / tsp', ns.wallMs / peer.wallMs, '×', PEER_RATIO),
        );
      return figs;
    } finally {
      work.remove();
    }
  },
};
