import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { tempDir } from './lib/cleanup.js';
import { timeShell, waitEnded, withDaemon } from './lib/daemon.js';
import { cpu, cpuDelta } from './lib/proc.js';
import { fmt, list, median, sum } from './lib/stats.js';
import { atMost, info, type Bench } from './lib/types.js';

const GiB = 1024 ** 3;
/** The fast producer: 1 GiB of zeros in 64 KiB writes. */
const PRODUCER = 'dd if=/dev/zero bs=64k count=16384 status=none';
/** `times` (POSIX sh) prints the shell's and then its children's user/sys CPU: the producer's rusage. */
const WITH_TIMES = `${PRODUCER}; times`;

/** Children's user+sys seconds from the second line of `times` output, in ms. */
function producerCpuMs(timesOutput: string): number {
  const lines = timesOutput.trim().split('\n');
  const children = lines[lines.length - 1] ?? '';
  const parts = [...children.matchAll(/(\d+)m([\d.]+)s/g)].map((m) => Number(m[1]) * 60 + Number(m[2]));
  if (parts.length !== 2) throw new Error(`cannot parse times output: ${JSON.stringify(timesOutput)}`);
  return sum(parts) * 1000;
}

export const capture: Bench = {
  name: 'capture',
  title: `Capture: 1 GiB (${PRODUCER}) as a task vs sh -c 'cmd > file'`,
  budgetSeconds: 240,
  async run(o, say) {
    const runs = o.quick ? 3 : 9;
    const work = tempDir('ns-bench-capture-');
    try {
      return await withDaemon({ outputCapBytes: 2 * GiB }, async ({ client, pid, env }) => {
        const base: number[] = [];
        const task: number[] = [];
        const ratios: number[] = [];
        const cpuShare: number[] = [];
        const daemonStatMs: number[] = [];
        const daemonSchedMs: number[] = [];
        const producerMs: number[] = [];

        const runBaseline = async () => {
          const file = join(work.dir, 'baseline.out');
          const r = await timeShell(`${PRODUCER} > ${file}; times`, work.dir);
          rmSync(file, { force: true });
          if (r.code !== 0) throw new Error(`baseline exited with ${r.code}`);
          return r.ms;
        };
        const runTask = async () => {
          const c0 = cpu(pid);
          const t0 = performance.now();
          const t = await client.run({ command: [WITH_TIMES], cwd: work.dir, env, stdin: false });
          const ended = await waitEnded(client, t.id);
          const ms = performance.now() - t0;
          const d = cpuDelta(c0, cpu(pid));
          if (ended.status !== 'exited' || ended.exitCode !== 0) throw new Error(`task ended ${ended.status}: ${JSON.stringify(ended)}`);
          if (ended.outputBytes < GiB) throw new Error(`task output is ${ended.outputBytes} bytes, expected ≥ 1 GiB`);
          const tail = await client.output(t.id, { offset: ended.outputBytes - 256, limit: 256 });
          await client.remove(t.id);
          return { ms, daemon: d, producer: producerCpuMs(tail.data.toString('latin1')) };
        };

        // Warm-up (page cache, daemon JIT), not counted.
        await runBaseline();
        await runTask();
        for (let i = 0; i < runs; i++) {
          // Alternate the order so drift on a shared machine does not favour one side.
          let b: number;
          let t: Awaited<ReturnType<typeof runTask>>;
          if (i % 2 === 0) {
            b = await runBaseline();
            await sleep(200);
            t = await runTask();
          } else {
            t = await runTask();
            await sleep(200);
            b = await runBaseline();
          }
          await sleep(200);
          base.push(b);
          task.push(t.ms);
          ratios.push(t.ms / b);
          daemonStatMs.push(t.daemon.statMs);
          daemonSchedMs.push(t.daemon.schedMs);
          producerMs.push(t.producer);
          cpuShare.push((100 * t.daemon.schedMs) / t.producer);
          say(`run ${i + 1}/${runs}: shell ${fmt(b)} ms, task ${fmt(t.ms)} ms (×${fmt(t.ms / b)}); producer CPU ${fmt(t.producer)} ms, daemon CPU ${fmt(t.daemon.schedMs)} ms (stat: ${fmt(t.daemon.statMs)} ms)`);
        }
        say(`shell redirect wall ms: ${list(base)}`);
        say(`nightshift task wall ms: ${list(task)}`);
        say(`daemon CPU ms (schedstat): ${list(daemonSchedMs)}; (stat utime+stime, 10 ms ticks): ${list(daemonStatMs)}`);
        return [
          info('shell redirect wall (median)', median(base), 'ms', 'baseline'),
          info('task wall, run → exit seen by client (median)', median(task), 'ms'),
          atMost('wall-time ratio task/shell (median of per-run ratios)', median(ratios), '', 1.05),
          info('wall-time ratio of medians', median(task) / median(base), ''),
          info('producer CPU (median)', median(producerMs), 'ms'),
          info('daemon CPU per capture, schedstat (median)', median(daemonSchedMs), 'ms'),
          info('daemon CPU per capture, stat ticks (median)', median(daemonStatMs), 'ms'),
          atMost('daemon CPU / producer CPU (median)', median(cpuShare), '%', 2),
          info('daemon CPU / producer CPU, stat ticks summed over runs', (100 * sum(daemonStatMs)) / sum(producerMs), '%'),
        ];
      });
    } finally {
      work.remove();
    }
  },
};
