/**
 * How late a per-second schedule fires: from the second the cron expression names to the moment the
 * task's command is started (its `startedAt`), over N firings of `* * * * * *`. The baseline,
 * measured in the same run and at the same time: a plain node-cron timer in this process that spawns
 * the same command at each firing (from the named second to the child's `spawn` event). No cron
 * daemon is available offline (systemd-run needs a systemd instance this machine does not have).
 */
import { spawn } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import cron from 'node-cron';
import type { Firing } from '../src/api/schedules.js';
import { addSchedule, getSchedule, removeSchedule } from '../src/client/schedules.js';
import { tempDir } from './lib/cleanup.js';
import { withDaemon } from './lib/daemon.js';
import { fmt, list, median, percentile } from './lib/stats.js';
import { atMost, info, type Bench } from './lib/types.js';

/** The node-cron baseline: delays (ms) of `count` firings, each spawning `true`. */
function baseline(count: number, cwd: string): { done: Promise<number[]>; stop: () => void } {
  const delays: number[] = [];
  let resolveDone!: (d: number[]) => void;
  const done = new Promise<number[]>((r) => (resolveDone = r));
  const task = cron.schedule('* * * * * *', (ctx) => {
    if (delays.length >= count) return;
    const p = spawn('true', [], { cwd, stdio: 'ignore' });
    p.once('spawn', () => {
      delays.push(Date.now() - ctx.date.getTime());
      if (delays.length === count) resolveDone(delays);
    });
    p.once('error', () => undefined);
  });
  return { done, stop: () => void Promise.resolve(task.destroy()).catch(() => undefined) };
}

export const scheduleBench: Bench = {
  name: 'schedule',
  title: 'per-second schedule: firing delay (cron second → task started) next to a plain node-cron timer',
  budgetSeconds: 120,
  async run(o, say) {
    const firings = o.quick ? 8 : 20;
    const work = tempDir('ns-bench-sched-');
    try {
      return await withDaemon({}, async ({ client }) => {
        const peer = baseline(firings, work.dir);
        const s = await addSchedule(client, { cron: '* * * * * *', command: ['true'], cwd: work.dir, overlap: 'allow' });
        // schedule show keeps the latest 20 firings: gathered as they come, by their time.
        const seen = new Map<string, Firing>();
        try {
          while ([...seen.values()].filter((f) => f.taskId !== undefined).length < firings + 1) {
            await sleep(500);
            for (const f of (await getSchedule(client, s.id)).firings) seen.set(f.at, f);
          }
        } finally {
          await removeSchedule(client, s.id);
        }
        const peerDelays = await peer.done;
        peer.stop();
        const all = [...seen.values()].sort((a, b) => a.at.localeCompare(b.at));
        // The first firing may race the schedule's creation; the next `firings` are measured.
        const fired = all.filter((f) => f.taskId !== undefined).slice(1, firings + 1);
        const ours: number[] = [];
        for (const f of fired) {
          const t = await client.get(f.taskId as string);
          if (!('startedAt' in t) || t.startedAt === undefined) throw new Error(`task ${t.id} of a firing did not start (${t.status})`);
          ours.push(Date.parse(t.startedAt) - Date.parse(f.at));
        }
        const outcomes = all.map((f) => f.outcome);
        say(`nightshift delays (ms): ${list(ours)}`);
        say(`node-cron + spawn delays (ms): ${list(peerDelays)}`);
        say(`firing outcomes: ${outcomes.filter((x) => x === 'started').length} started, ${outcomes.filter((x) => x !== 'started').length} other`);
        const p50 = median(ours);
        const peer50 = median(peerDelays);
        return [
          atMost(`nightshift firing delay p50 (${firings} firings)`, p50, 'ms', 1000),
          atMost(`nightshift firing delay p99`, percentile(ours, 99), 'ms', 1000),
          info('node-cron timer + spawn delay p50 (same run)', peer50, 'ms'),
          info('node-cron timer + spawn delay p99 (same run)', percentile(peerDelays, 99), 'ms'),
          info('nightshift p50 − baseline p50', p50 - peer50, 'ms', `${fmt(p50 / Math.max(peer50, 0.001))}× the baseline`),
        ];
      });
    } finally {
      work.remove();
    }
  },
};
