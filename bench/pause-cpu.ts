/**
 * `pause` stops a CPU-bound task: its utime+stime (/proc/<pid>/stat, the command's own process)
 * does not grow over 2 s while paused, and grows again after `resume`. No peer: task-spooler has no
 * pause (a SIGSTOP sent by hand is all it offers).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { readFileSync } from 'node:fs';
import { tempDir } from './lib/cleanup.js';
import { waitEnded, withDaemon } from './lib/daemon.js';
import { CLK_TCK } from './lib/proc.js';
import { atLeast, atMost, info, type Bench } from './lib/types.js';

/** utime + stime of one process, in clock ticks. */
function ticks(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return Number(f[11]) + Number(f[12]);
}

export const pauseCpu: Bench = {
  name: 'pause-cpu',
  title: 'a paused CPU-bound task uses no CPU (utime+stime from /proc over 2 s), and runs again after resume',
  budgetSeconds: 60,
  async run(_o, say) {
    const work = tempDir('ns-bench-pause-');
    try {
      return await withDaemon({}, async ({ client }) => {
        const t = await client.run({
          command: ['sh', '-c', 'while :; do :; done'],
          cwd: work.dir,
          env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin' },
          stdin: false,
        });
        if (t.state !== 'running' || t.pid === undefined) throw new Error(`task ${t.id} is ${t.status}, without a pid`);
        const pid = t.pid;
        try {
          await sleep(1000);
          const r0 = ticks(pid);
          await sleep(1000);
          const running = ticks(pid) - r0;
          await client.pause(t.id);
          // The stop is delivered when kill(2) returns; a tick being accounted meanwhile is given 20 ms.
          await sleep(20);
          const p0 = ticks(pid);
          await sleep(2000);
          const paused = ticks(pid) - p0;
          const state = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.[0] ?? '?';
          await client.resume(t.id);
          const q0 = ticks(pid);
          await sleep(1000);
          const resumed = ticks(pid) - q0;
          say(
            `task ${t.id} (pid ${pid}, CLK_TCK ${CLK_TCK}): ${running} ticks in 1 s running, ${paused} ticks in 2 s paused (state ${state}), ${resumed} ticks in 1 s after resume`,
          );
          return [
            atMost('CPU ticks of the paused task over 2 s', paused, 'ticks', 0),
            atLeast('CPU ticks over 1 s after resume', resumed, 'ticks', 1),
            info('CPU ticks over 1 s before pause', running, 'ticks'),
          ];
        } finally {
          await client.kill(t.id, 'SIGKILL');
          await waitEnded(client, t.id);
        }
      });
    } finally {
      work.remove();
    }
  },
};
