import { spawn } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { defer, killPid, tempDir } from './lib/cleanup.js';
import { waitEnded, withDaemon } from './lib/daemon.js';
import { CLI } from './lib/spawn.js';
import { fmt, median, percentile } from './lib/stats.js';
import { atMost, info, type Bench, type Figure } from './lib/types.js';

const INTERVAL_MS = 10;
const START_DELAY_MS = 1500;
/** nightshift tail -f may take this much longer than tail -F per line (p50), as a ratio. */
const RATIO_TARGET = 2;
/** …or this many ms, whichever is more: tail -F's own p50 is a fraction of a millisecond. */
const SLACK_MS = 2;

/**
 * One node process for the whole run (no spawn per line): after a delay that lets the followers
 * start, it writes "<n> <wall-clock ms>" every 10 ms to stdout, which is the task's output.log.
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

/** Parses "<n> <stamp>" lines as they arrive and keeps receive time minus stamp for each. */
function stampReader(): { onData: (chunk: Buffer) => void; latencies: number[] } {
  const latencies: number[] = [];
  let buf = '';
  return {
    latencies,
    onData(chunk) {
      const at = performance.timeOrigin + performance.now();
      buf += chunk.toString('utf8');
      let nl;
      while ((nl = buf.indexOf('\n')) >= 0) {
        const [, stamp] = buf.slice(0, nl).split(' ');
        buf = buf.slice(nl + 1);
        if (stamp !== undefined) latencies.push(at - Number(stamp));
      }
    },
  };
}

/** A follower process whose stdout is read as it comes; killed by its pid when done with (or on interrupt). */
function follower(
  cmd: string,
  args: string[],
  env: Record<string, string>,
): { latencies: number[]; stop: () => void; ended: Promise<number | null>; stderr: () => string } {
  const reader = stampReader();
  const p = spawn(cmd, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  const pid = p.pid;
  const drop = pid === undefined ? () => undefined : defer(() => killPid(pid));
  let err = '';
  p.stdout.on('data', reader.onData);
  p.stderr.on('data', (c: Buffer) => (err += c.toString()));
  const ended = new Promise<number | null>((resolve, reject) => {
    p.once('error', reject);
    p.once('close', (code) => {
      drop();
      resolve(code);
    });
  });
  return { latencies: reader.latencies, stop: () => pid !== undefined && killPid(pid, 'SIGTERM'), ended, stderr: () => err };
}

const pct = (xs: number[]) => ({ p50: percentile(xs, 50), p99: percentile(xs, 99), max: Math.max(...xs) });

export const followLatency: Bench = {
  name: 'follow',
  title: 'Follow latency: a line every 10 ms for 10 s; nightshift tail -f beside tail -F on the same file',
  budgetSeconds: 150,
  async run(o, say) {
    const runs = o.quick ? 1 : 3;
    const lines = o.quick ? 300 : 1000;
    const work = tempDir('ns-bench-follow-');
    try {
      return await withDaemon({}, async ({ client, env, cliEnv }) => {
        const ns = { p50: [] as number[], p99: [] as number[], all: [] as number[] };
        const peer = { p50: [] as number[], p99: [] as number[], all: [] as number[] };
        const api = { p50: [] as number[], p99: [] as number[] };
        for (let r = 0; r < runs; r++) {
          const task = await client.run({ command: [process.execPath, '-e', PRODUCER, String(lines)], cwd: work.dir, env, stdin: false });
          // The same file, followed three ways at once: GNU tail -F (inotify), the CLI, the client in-process.
          const tailF = follower('tail', ['-n', '0', '-F', task.outputPath], env);
          const nsTail = follower(process.execPath, [CLI, 'tail', task.id, '-n', '0', '-f'], cliEnv);
          const inProcess = stampReader();
          const following = client.follow(task.id, 0, inProcess.onData);
          const ended = await waitEnded(client, task.id);
          if (ended.status !== 'exited' || ended.exitCode !== 0) throw new Error(`producer ended ${ended.status}`);
          const code = await nsTail.ended;
          await following;
          // tail -F never ends by itself: give it what the file holds, then stop it.
          const deadline = Date.now() + 5000;
          while (tailF.latencies.length < lines && Date.now() < deadline) await new Promise((res) => setTimeout(res, 20));
          tailF.stop();
          await tailF.ended;
          if (code !== 0) throw new Error(`nightshift tail -f exited ${code}: ${nsTail.stderr()}`);
          for (const [name, got] of [
            ['nightshift tail -f', nsTail.latencies],
            ['tail -F', tailF.latencies],
            ['ApiClient.follow', inProcess.latencies],
          ] as const) {
            if (got.length !== lines) throw new Error(`${name} received ${got.length} lines of ${lines}`);
          }
          await client.remove(task.id);
          const a = pct(nsTail.latencies);
          const b = pct(tailF.latencies);
          const c = pct(inProcess.latencies);
          ns.p50.push(a.p50);
          ns.p99.push(a.p99);
          ns.all.push(...nsTail.latencies);
          peer.p50.push(b.p50);
          peer.p99.push(b.p99);
          peer.all.push(...tailF.latencies);
          api.p50.push(c.p50);
          api.p99.push(c.p99);
          say(
            `run ${r + 1}/${runs}: ${lines} lines; p50 / p99 / max: nightshift tail -f ${fmt(a.p50)} / ${fmt(a.p99)} / ${fmt(a.max)} ms, ` +
              `tail -F ${fmt(b.p50)} / ${fmt(b.p99)} / ${fmt(b.max)} ms, ApiClient.follow ${fmt(c.p50)} / ${fmt(c.p99)} / ${fmt(c.max)} ms`,
          );
        }
        const nsP50 = median(ns.p50);
        const peerP50 = median(peer.p50);
        const allowed = Math.max(RATIO_TARGET * peerP50, peerP50 + SLACK_MS);
        const figures: Figure[] = [
          atMost('nightshift tail -f, latency p50 (median over runs)', nsP50, 'ms', 15),
          atMost('nightshift tail -f, latency p99 (median over runs)', median(ns.p99), 'ms', 60),
          info('tail -F on the same file (peer, same run), p50', peerP50, 'ms', `p99 ${fmt(median(peer.p99))} ms`),
          {
            name: 'nightshift tail -f p50 / tail -F p50',
            value: nsP50 / peerP50,
            unit: '×',
            target: `p50 ≤ max(${RATIO_TARGET} × tail -F, tail -F + ${SLACK_MS} ms) = ${fmt(allowed)} ms`,
            ok: nsP50 <= allowed,
          },
          info(
            'all lines pooled: nightshift tail -f p50 / p99 / max',
            percentile(ns.all, 50),
            'ms',
            `p99 ${fmt(percentile(ns.all, 99))}, max ${fmt(Math.max(...ns.all))}; tail -F p99 ${fmt(percentile(peer.all, 99))}, max ${fmt(Math.max(...peer.all))}`,
          ),
          info('ApiClient.follow in the bench process, p50 (median over runs)', median(api.p50), 'ms', `p99 ${fmt(median(api.p99))} ms`),
        ];
        return figures;
      });
    } finally {
      work.remove();
    }
  },
};
