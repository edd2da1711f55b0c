import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ApiClient } from '../src/client/api-client.js';
import { isFinished } from '../src/api/tasks.js';
import { readStat } from '../src/sys/proc.js';
import { tempDir } from './lib/cleanup.js';
import { withDaemon } from './lib/daemon.js';
import { cpu, cpuDelta, machineJiffies, memory, statusKiB, type Memory } from './lib/proc.js';
import { fmt, list, median } from './lib/stats.js';
import { atLeast, atMost, info, type Bench } from './lib/types.js';

const TASKS = 500;
const IN_FLIGHT = 12;

/** `count` calls of `start`, `inFlight` at a time; returns what they returned and the elapsed ms. */
async function inParallel<T>(count: number, inFlight: number, start: (i: number) => Promise<T>): Promise<{ out: T[]; ms: number }> {
  const out: T[] = [];
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (next < count) out.push(await start(next++));
    }),
  );
  return { out, ms: performance.now() - t0 };
}

/** Each task's pid is its command once the daemon has it; the command's parent is the wrapper. */
async function processes(client: ApiClient, daemonPid: number): Promise<{ wrappers: number[]; commands: number[] }> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const wrappers: number[] = [];
    const commands: number[] = [];
    for (const t of await client.list()) {
      if (t.state !== 'running' || t.pid === undefined) continue;
      const parent = readStat(t.pid)?.ppid;
      if (parent === undefined || parent === daemonPid) continue;
      // The wrapper is a child of the daemon's spawner (of the daemon itself before the spawner).
      const above = readStat(parent)?.ppid;
      if (above === undefined || (above !== daemonPid && readStat(above)?.ppid !== daemonPid)) continue;
      wrappers.push(parent);
      commands.push(t.pid);
    }
    if (wrappers.length === TASKS) return { wrappers, commands };
    if (Date.now() > deadline) throw new Error(`only ${wrappers.length} of ${TASKS} wrappers found`);
    await sleep(200);
  }
}

const describe = (what: string, ms: Memory[]) => {
  const m = (k: keyof Memory) => fmt(median(ms.map((x) => x[k])));
  return `${what} median KiB: VmRSS ${m('rssKiB')}, Pss ${m('pssKiB')}, private ${m('privateKiB')}`;
};

interface Round {
  ids: string[];
  rate: number;
}

export const idleTasks: Bench = {
  name: 'idle-tasks',
  title: `${TASKS} concurrent sleeping tasks: spawn rate, daemon RSS and idle CPU, wrapper memory`,
  budgetSeconds: 300,
  async run(o, say) {
    const idleSeconds = o.quick ? 10 : 60;
    const rounds = o.quick ? 1 : 3;
    const work = tempDir('ns-bench-idle-');
    try {
      return await withDaemon({ maxParallel: 1000 }, async ({ client, pid, env }) => {
        const rssBefore = statusKiB(pid, 'VmRSS');
        const spawnRound = async (): Promise<Round> => {
          const c0 = cpu(pid);
          const j0 = machineJiffies();
          const r = await inParallel(TASKS, IN_FLIGHT, async () => (await client.run({ command: ['sleep', '120'], cwd: work.dir, env })).id);
          const j1 = machineJiffies();
          const rate = TASKS / (r.ms / 1000);
          say(
            `${TASKS} run acknowledgements in ${fmt(r.ms)} ms with ${IN_FLIGHT} in flight: ${fmt(rate)} tasks/s; ` +
              `daemon CPU ${fmt(cpuDelta(c0, cpu(pid)).schedMs / TASKS)} ms per task; machine CPU busy ${fmt((100 * (j1.busy - j0.busy)) / (j1.total - j0.total))} % of all cores`,
          );
          return { ids: r.out, rate };
        };
        const rates: number[] = [];
        let ids: string[] = [];
        try {
          const first = await spawnRound();
          ids = first.ids;
          rates.push(first.rate);
          const procs = await processes(client, pid);
          await sleep(1000);
          const wrappers = procs.wrappers.map(memory);
          say(describe('wrapper (a fork of the spawner, dash)', wrappers));
          say(describe('command (sleep, for comparison)', procs.commands.map(memory)));
          const rssAfterSpawn = statusKiB(pid, 'VmRSS');
          const i0 = cpu(pid);
          const t0 = performance.now();
          const steps: number[] = [];
          for (let at = i0; steps.length < idleSeconds / 5;) {
            await sleep(t0 + (steps.length + 1) * 5000 - performance.now());
            const c = cpu(pid);
            steps.push(c.schedMs - at.schedMs);
            at = c;
          }
          const idle = cpuDelta(i0, cpu(pid));
          const elapsed = performance.now() - t0;
          const rssAfterIdle = statusKiB(pid, 'VmRSS');
          const counts = (await client.status()).tasks;
          say(
            `daemon VmRSS: ${fmt(rssBefore / 1024)} MiB before, ${fmt(rssAfterSpawn / 1024)} after spawning, ${fmt(rssAfterIdle / 1024)} after ${idleSeconds} s idle`,
          );
          say(
            `idle ${fmt(elapsed / 1000)} s: daemon CPU ${fmt(idle.schedMs)} ms (stat ticks: ${fmt(idle.statMs)} ms); ${counts.running} running, ${counts.attention} flagged silent/prompt by the stall check`,
          );
          say(`daemon CPU ms per 5 s of the idle period: ${list(steps)}`);
          // More spawn rounds for a median rate; each starts from an empty task list like the first.
          for (let r = 1; r < rounds; r++) {
            await endAll(client, ids);
            const next = await spawnRound();
            ids = next.ids;
            rates.push(next.rate);
          }
          return [
            atLeast(`spawn rate (${TASKS} acks, ${IN_FLIGHT} in flight, median of ${rounds})`, median(rates), 'tasks/s', 100),
            atMost(`daemon VmRSS with ${TASKS} tasks (max after spawn / after idle)`, Math.max(rssAfterSpawn, rssAfterIdle) / 1024, 'MiB', 200),
            atMost('wrapper VmRSS (median)', median(wrappers.map((m) => m.rssKiB)) / 1024, 'MiB', 1),
            atMost('wrapper Pss (median)', median(wrappers.map((m) => m.pssKiB)) / 1024, 'MiB', 1),
            info('wrapper private memory (median)', median(wrappers.map((m) => m.privateKiB)) / 1024, 'MiB', 'Private_Clean + Private_Dirty'),
            atMost(`daemon CPU over ${idleSeconds} s idle (% of one core)`, (100 * idle.schedMs) / elapsed, '%', 1),
            info(`same, from stat utime+stime ticks`, (100 * idle.statMs) / elapsed, '%'),
          ];
        } finally {
          await endAll(client, ids);
        }
      });
    } finally {
      work.remove();
    }
  },
};

/** SIGKILL through the API, wait until the daemon has seen every task end, then remove them. */
async function endAll(client: ApiClient, ids: string[]): Promise<void> {
  await inParallel(ids.length, IN_FLIGHT, (i) => client.kill(ids[i] as string, 'SIGKILL').catch(() => undefined));
  const deadline = Date.now() + 30_000;
  while ((await client.list()).some((t) => ids.includes(t.id) && !isFinished(t))) {
    if (Date.now() > deadline) throw new Error('tasks still running 30 s after SIGKILL');
    await sleep(200);
  }
  await inParallel(ids.length, IN_FLIGHT, (i) => client.remove(ids[i] as string).catch(() => undefined));
}
