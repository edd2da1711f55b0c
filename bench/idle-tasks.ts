import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ApiClient } from '../src/api/client.js';
import { isFinished } from '../src/api/tasks.js';
import { readStat } from '../src/tasks/proc.js';
import { tempDir } from './lib/cleanup.js';
import { withDaemon } from './lib/daemon.js';
import { cpu, cpuDelta, memory, statusKiB } from './lib/proc.js';
import { fmt, median, sum } from './lib/stats.js';
import { atLeast, atMost, info, type Bench } from './lib/types.js';

const TASKS = 500;
const IN_FLIGHT = 12;

/** Runs `count` tasks with `inFlight` requests at a time; returns their ids and the elapsed ms. */
async function spawnAll(client: ApiClient, count: number, inFlight: number, start: (c: ApiClient) => Promise<string>): Promise<{ ids: string[]; ms: number }> {
  const ids: string[] = [];
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (next < count) {
        next += 1;
        ids.push(await start(client));
      }
    }),
  );
  return { ids, ms: performance.now() - t0 };
}

/** Wrapper pids: each task's pid is the command once the daemon has read child.pid; its parent is the wrapper. */
async function wrapperPids(client: ApiClient, daemonPid: number): Promise<number[]> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const tasks = await client.list();
    const wrappers = tasks.flatMap((t) => {
      if (t.status !== 'running') return [];
      const parent = readStat(t.pid)?.ppid;
      return parent !== undefined && parent !== daemonPid && readStat(parent)?.ppid === daemonPid ? [parent] : [];
    });
    if (wrappers.length === TASKS) return wrappers;
    if (Date.now() > deadline) throw new Error(`only ${wrappers.length} of ${TASKS} wrappers found`);
    await sleep(200);
  }
}

export const idleTasks: Bench = {
  name: 'idle-tasks',
  title: `${TASKS} concurrent sleeping tasks: spawn rate, daemon RSS and idle CPU, wrapper memory`,
  budgetSeconds: 240,
  async run(o, say) {
    const idleSeconds = o.quick ? 10 : 60;
    const work = tempDir('ns-bench-idle-');
    try {
      return await withDaemon({ maxParallel: 1000 }, async ({ client, pid, env }) => {
        const rssBefore = statusKiB(pid, 'VmRSS');
        let ids: string[] = [];
        try {
          const spawned = await spawnAll(client, TASKS, IN_FLIGHT, async (c) => (await c.run({ command: ['sleep', '120'], cwd: work.dir, env, stdin: true })).id);
          ids = spawned.ids;
          const rate = TASKS / (spawned.ms / 1000);
          say(`${TASKS} run acknowledgements in ${fmt(spawned.ms)} ms with ${IN_FLIGHT} in flight: ${fmt(rate)} tasks/s`);
          const wrappers = await wrapperPids(client, pid);
          await sleep(1000);
          const mem = wrappers.map(memory);
          const rssAfterSpawn = statusKiB(pid, 'VmRSS');
          const c0 = cpu(pid);
          const t0 = performance.now();
          await sleep(idleSeconds * 1000);
          const idle = cpuDelta(c0, cpu(pid));
          const elapsed = performance.now() - t0;
          const rssAfterIdle = statusKiB(pid, 'VmRSS');
          const counts = (await client.status()).tasks;
          say(`daemon VmRSS: ${fmt(rssBefore / 1024)} MiB before, ${fmt(rssAfterSpawn / 1024)} after spawning, ${fmt(rssAfterIdle / 1024)} after ${idleSeconds} s idle`);
          say(`idle ${fmt(elapsed / 1000)} s: daemon CPU ${fmt(idle.schedMs)} ms (schedstat), ${fmt(idle.statMs)} ms (stat); ${counts.running} running, ${counts.attention} flagged for attention`);
          const rss = mem.map((m) => m.rssKiB);
          const pss = mem.map((m) => m.pssKiB);
          say(`wrapper VmRSS KiB min/median/max ${Math.min(...rss)}/${median(rss)}/${Math.max(...rss)}; Pss KiB min/median/max ${Math.min(...pss)}/${median(pss)}/${Math.max(...pss)}; Pss total ${fmt(sum(pss) / 1024)} MiB`);
          return [
            atLeast('spawn rate (500 acks, 12 in flight)', rate, 'tasks/s', 100),
            atMost('daemon VmRSS with 500 tasks (max of after spawn / after idle)', Math.max(rssAfterSpawn, rssAfterIdle) / 1024, 'MiB', 200),
            atMost('wrapper VmRSS (median)', median(rss) / 1024, 'MiB', 1),
            atMost('wrapper Pss (median)', median(pss) / 1024, 'MiB', 1),
            atMost(`daemon CPU over ${idleSeconds} s idle (% of one core, schedstat)`, (100 * idle.schedMs) / elapsed, '%', 1),
            info(`daemon CPU over ${idleSeconds} s idle (% of one core, stat ticks)`, (100 * idle.statMs) / elapsed, '%'),
          ];
        } finally {
          await killAll(client, ids);
        }
      });
    } finally {
      work.remove();
    }
  },
};

/** SIGKILL through the API, then wait until the daemon has seen every task end. */
async function killAll(client: ApiClient, ids: string[]): Promise<void> {
  const queue = [...ids];
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      for (let id = queue.pop(); id !== undefined; id = queue.pop()) {
        await client.kill(id, 'SIGKILL').catch(() => undefined);
      }
    }),
  );
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    const left = (await client.list(true)).filter((t) => ids.includes(t.id) && !isFinished(t));
    if (left.length === 0) return;
    await sleep(200);
  }
}
