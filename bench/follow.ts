import { performance } from 'node:perf_hooks';
import { tempDir } from './lib/cleanup.js';
import { waitEnded, withDaemon } from './lib/daemon.js';
import { fmt, median, percentile } from './lib/stats.js';
import { atMost, info, type Bench } from './lib/types.js';

const INTERVAL_MS = 10;
const START_DELAY_MS = 1000;

/**
 * One node process for the whole run (no spawn per line): after a delay that lets the follower
 * connect, it writes "<n> <wall-clock ms>" every 10 ms to stdout, which is the task's output.log.
 */
const PRODUCER = `
const lines = Number(process.argv[1]);
let n = 0;
setTimeout(() => {
  const t = setInterval(() => {
    process.stdout.write(n + ' ' + (performance.timeOrigin + performance.now()).toFixed(3) + '\\n');
    if (++n >= lines) clearInterval(t);
  }, ${INTERVAL_MS});
}, ${START_DELAY_MS});
`;

export const followLatency: Bench = {
  name: 'follow',
  title: 'Follow latency: a line every 10 ms for 10 s, received through ApiClient.follow',
  budgetSeconds: 120,
  async run(o, say) {
    const runs = o.quick ? 1 : 3;
    const lines = o.quick ? 300 : 1000;
    const work = tempDir('ns-bench-follow-');
    try {
      return await withDaemon({}, async ({ client, env }) => {
        const all: number[] = [];
        const p50s: number[] = [];
        const p99s: number[] = [];
        for (let r = 0; r < runs; r++) {
          const latencies: number[] = [];
          const task = await client.run({ command: [process.execPath, '-e', PRODUCER, String(lines)], cwd: work.dir, env, stdin: false });
          let buf = '';
          await client.follow(task.id, 0, (chunk) => {
            const at = performance.timeOrigin + performance.now();
            buf += chunk.toString('utf8');
            let nl;
            while ((nl = buf.indexOf('\n')) >= 0) {
              const [, stamp] = buf.slice(0, nl).split(' ');
              buf = buf.slice(nl + 1);
              latencies.push(at - Number(stamp));
            }
          });
          const ended = await waitEnded(client, task.id);
          if (ended.status !== 'exited' || ended.exitCode !== 0) throw new Error(`producer ended ${ended.status}`);
          if (latencies.length !== lines) throw new Error(`received ${latencies.length} lines of ${lines}`);
          await client.remove(task.id);
          const p50 = percentile(latencies, 50);
          const p99 = percentile(latencies, 99);
          p50s.push(p50);
          p99s.push(p99);
          all.push(...latencies);
          say(`run ${r + 1}/${runs}: ${lines} lines, latency p50 ${fmt(p50)} ms, p99 ${fmt(p99)} ms, max ${fmt(Math.max(...latencies))} ms`);
        }
        return [
          atMost('latency p50 (median over runs)', median(p50s), 'ms', 15),
          atMost('latency p99 (median over runs)', median(p99s), 'ms', 60),
          info('latency p50 / p99 / max, all lines pooled', percentile(all, 50), 'ms', `p99 ${fmt(percentile(all, 99))} ms, max ${fmt(Math.max(...all))} ms`),
          info('baseline: pueue follow polls every', 250, 'ms', 'to 1000 ms (quoted, not measured): mean delay 125–500 ms'),
        ];
      });
    } finally {
      work.remove();
    }
  },
};
