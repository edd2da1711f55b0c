import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ApiClient } from '../src/client/api-client.js';
import { tempDir } from './lib/cleanup.js';
import { timeShell, waitEnded, withDaemon } from './lib/daemon.js';
import { cpu, cpuDelta } from './lib/proc.js';
import { list, median, sum } from './lib/stats.js';
import { atMost, info, type Bench, type Figure } from './lib/types.js';

const GiB = 1024 ** 3;
/** Fast producers of 1 GiB; head is the slower (8 KiB writes), dd the faster (64 KiB writes). */
const PRODUCERS = [
  { label: 'head', cmd: `head -c ${GiB} /dev/zero` },
  { label: 'dd', cmd: 'dd if=/dev/zero bs=64k count=16384 status=none' },
];

/** Children's user+sys from the second line of `times` (POSIX sh): the producer's rusage, in ms. */
function producerCpuMs(timesOutput: string): number {
  const lines = timesOutput.trim().split('\n');
  const parts = [...(lines[lines.length - 1] ?? '').matchAll(/(\d+)m([\d.]+)s/g)].map((m) => Number(m[1]) * 60 + Number(m[2]));
  if (parts.length !== 2) throw new Error(`cannot parse times output: ${JSON.stringify(timesOutput)}`);
  return sum(parts) * 1000;
}

interface Ctx {
  client: ApiClient;
  pid: number;
  env: Record<string, string>;
  dir: string;
}

/** `sh -c 'cmd > file; times'`: wall ms from spawn to exit. */
async function shellRun(c: Ctx, cmd: string): Promise<number> {
  const file = join(c.dir, 'baseline.out');
  const r = await timeShell(`${cmd} > ${file}; times`, c.dir);
  rmSync(file, { force: true });
  if (r.code !== 0) throw new Error(`baseline exited with ${r.code}`);
  return r.ms;
}

/** The same command as a task: wall ms from the run request to the end seen by `wait`, daemon and producer CPU. */
async function taskRun(c: Ctx, cmd: string, minBytes: number) {
  const c0 = cpu(c.pid);
  const t0 = performance.now();
  const t = await c.client.run({ command: [`${cmd}; times`], cwd: c.dir, env: c.env, stdin: false });
  const ended = await waitEnded(c.client, t.id);
  const ms = performance.now() - t0;
  const daemon = cpuDelta(c0, cpu(c.pid));
  if (ended.status !== 'exited' || ended.exitCode !== 0) throw new Error(`task ended ${ended.status}: ${JSON.stringify(ended)}`);
  if (ended.outputBytes < minBytes) throw new Error(`task output is ${ended.outputBytes} bytes, expected ≥ ${minBytes}`);
  const tail = await c.client.output(t.id, { offset: Math.max(0, ended.outputBytes - 256), limit: 256 });
  await c.client.remove(t.id);
  return { ms, daemon, producer: producerCpuMs(tail.data.toString('latin1')) };
}

/** Alternating shell and task runs (order flipped every run, so drift favours neither). */
async function compare(c: Ctx, cmd: string, runs: number, minBytes: number, say: (l: string) => void) {
  const rows: { shell: number; task: number; daemonSched: number; daemonStat: number; producer: number }[] = [];
  await shellRun(c, cmd); // warm-up: page cache, daemon JIT
  await taskRun(c, cmd, minBytes);
  for (let i = 0; i < runs; i++) {
    const before = i % 2 === 0 ? await shellRun(c, cmd) : undefined;
    await sleep(100);
    const t = await taskRun(c, cmd, minBytes);
    await sleep(100);
    const shell = before ?? (await shellRun(c, cmd));
    await sleep(100);
    rows.push({ shell, task: t.ms, daemonSched: t.daemon.schedMs, daemonStat: t.daemon.statMs, producer: t.producer });
  }
  const col = (k: keyof (typeof rows)[number]) => rows.map((r) => r[k]);
  say(`  shell ms: ${list(col('shell'))}`);
  say(`  task ms:  ${list(col('task'))}`);
  say(`  producer CPU ms: ${list(col('producer'))}; daemon CPU ms: ${list(col('daemonSched'))} (stat ticks: ${list(col('daemonStat'))})`);
  return {
    shell: median(col('shell')),
    task: median(col('task')),
    ratio: median(rows.map((r) => r.task / r.shell)),
    minRatio: Math.min(...col('task')) / Math.min(...col('shell')),
    overhead: median(rows.map((r) => r.task - r.shell)),
    producer: median(col('producer')),
    daemonSched: median(col('daemonSched')),
    share: median(rows.map((r) => (100 * r.daemonSched) / r.producer)),
    shareSum: (100 * sum(col('daemonSched'))) / sum(col('producer')),
    shareTicks: (100 * sum(col('daemonStat'))) / sum(col('producer')),
  };
}

export const capture: Bench = {
  name: 'capture',
  title: "Capture: 1 GiB from a fast producer as a task vs the shell redirect sh -c 'cmd > file'",
  budgetSeconds: 300,
  async run(o, say) {
    const runs = o.quick ? 3 : 11;
    const work = tempDir('ns-bench-capture-');
    try {
      return await withDaemon({ outputCapBytes: 2 * GiB }, async ({ client, pid, env }) => {
        const c: Ctx = { client, pid, env, dir: work.dir };
        const figures: Figure[] = [];
        for (const p of PRODUCERS) {
          say(`${p.label}: ${p.cmd} (${runs} runs)`);
          const r = await compare(c, p.cmd, runs, GiB, say);
          figures.push(
            info(`${p.label}: shell redirect wall (median)`, r.shell, 'ms', 'baseline'),
            info(`${p.label}: task wall, run request → end seen by wait (median)`, r.task, 'ms'),
            atMost(`${p.label}: wall-time ratio task/shell (median of runs)`, r.ratio, '', 1.05),
            info(`${p.label}: wall-time ratio of the fastest runs`, r.minRatio, '', 'least disturbed by other load'),
            info(`${p.label}: producer CPU (median)`, r.producer, 'ms'),
            info(`${p.label}: daemon CPU during the capture (median)`, r.daemonSched, 'ms'),
            atMost(`${p.label}: daemon CPU / producer CPU (median of runs)`, r.share, '%', 2),
            info(`${p.label}: same, CPU summed over runs (schedstat)`, r.shareSum, '%', 'outlier runs weigh in'),
            info(`${p.label}: same, summed over runs (stat utime+stime ticks)`, r.shareTicks, '%'),
          );
        }
        // The same path with nothing to capture: what a task costs regardless of its output.
        const nullRuns = o.quick ? 5 : 15;
        say(`no output: true (${nullRuns} runs)`);
        const n = await compare(c, 'true', nullRuns, 0, say);
        figures.push(
          info('fixed cost per task: wall, task − shell (median)', n.overhead, 'ms', 'independent of output size'),
          info('fixed cost per task: daemon CPU (median)', n.daemonSched, 'ms', 'independent of output size'),
        );
        return figures;
      });
    } finally {
      work.remove();
    }
  },
};
