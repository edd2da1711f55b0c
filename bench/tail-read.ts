import { performance } from 'node:perf_hooks';
import type { ApiClient } from '../src/client/api-client.js';
import { tempDir } from './lib/cleanup.js';
import { waitEnded, withDaemon } from './lib/daemon.js';
import { freeBytes } from './lib/proc.js';
import { fmt, median, percentile } from './lib/stats.js';
import { atMost, info, type Bench } from './lib/types.js';

const GiB = 1024 ** 3;
const MiB = 1024 ** 2;
const TAIL = 64 * 1024;

/** Runs a real task that writes `bytes` zeros and returns its id once it has ended. */
async function makeOutput(client: ApiClient, cwd: string, env: Record<string, string>, bytes: number): Promise<string> {
  const t = await client.run({ command: ['head', '-c', String(bytes), '/dev/zero'], cwd, env, stdin: false });
  const ended = await waitEnded(client, t.id);
  if (ended.status !== 'exited' || ended.outputBytes !== bytes) throw new Error(`writer ended ${ended.status} with ${ended.outputBytes} bytes`);
  return t.id;
}

/** Wall time of one API read of the last 64 KiB, in ms. */
async function timeTailRead(client: ApiClient, id: string, size: number): Promise<number> {
  const t0 = performance.now();
  const { data } = await client.output(id, { offset: size - TAIL, limit: TAIL });
  const ms = performance.now() - t0;
  if (data.length !== TAIL) throw new Error(`read ${data.length} bytes, expected ${TAIL}`);
  return ms;
}

export const tailRead: Bench = {
  name: 'tail-read',
  title: 'Reading the last 64 KiB of a 4 GiB output through the API vs of a 1 MiB output',
  budgetSeconds: 300,
  async run(o, say) {
    const bigSize = 4 * GiB;
    const reads = o.quick ? 100 : 500;
    const work = tempDir('ns-bench-tail-');
    try {
      const free = freeBytes('/tmp');
      say(`free space under /tmp: ${fmt(free / GiB)} GiB`);
      if (free < bigSize + 4 * GiB) throw new Error(`needs ${fmt((bigSize + 4 * GiB) / GiB)} GiB free under /tmp, has ${fmt(free / GiB)} GiB`);
      return await withDaemon({ outputCapBytes: 5 * GiB }, async ({ client, env }) => {
        const t0 = performance.now();
        const big = await makeOutput(client, work.dir, env, bigSize);
        say(`4 GiB output written by a task in ${fmt((performance.now() - t0) / 1000)} s`);
        const small = await makeOutput(client, work.dir, env, MiB);
        try {
          for (let i = 0; i < 20; i++) {
            await timeTailRead(client, big, bigSize);
            await timeTailRead(client, small, MiB);
          }
          const bigMs: number[] = [];
          const smallMs: number[] = [];
          // Interleaved, so both see the same machine load.
          for (let i = 0; i < reads; i++) {
            bigMs.push(await timeTailRead(client, big, bigSize));
            smallMs.push(await timeTailRead(client, small, MiB));
          }
          say(
            `${reads} reads each; 4 GiB: p10 ${fmt(percentile(bigMs, 10))} p90 ${fmt(percentile(bigMs, 90))} ms; 1 MiB: p10 ${fmt(percentile(smallMs, 10))} p90 ${fmt(percentile(smallMs, 90))} ms`,
          );
          return [
            atMost('last 64 KiB of 4 GiB (median)', median(bigMs), 'ms', 5),
            info('last 64 KiB of 1 MiB (median)', median(smallMs), 'ms', 'baseline'),
            atMost('ratio 4 GiB / 1 MiB (medians)', median(bigMs) / median(smallMs), '', 1.5),
          ];
        } finally {
          await client.remove(big);
          await client.remove(small);
        }
      });
    } finally {
      work.remove();
    }
  },
};
