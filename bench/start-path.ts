/**
 * The task start path (issue 22), next to task-spooler in the same run:
 * - 250 independent `true` tasks as one workflow in a group of parallel 8, `workflow run --wait`
 *   from the CLI, wall time against `tsp -S 8` with 250 jobs added by its client (its usual way) and
 *   waited for by polling its list every 10 ms;
 * - the daemon's CPU per task over that run (utime + stime of the daemon and any Node helper it
 *   has), the spawner's own CPU beside it (a dash process; its wrappers are counted by no one, as
 *   tsp's per-job processes are not);
 * - with strace attached (when installed) to the daemon and the spawner in a second run: durable
 *   writes to the task journal (O_DSYNC appends and fsyncs) per task, and execs per task;
 * - 100 sleeping tasks: the daemon's growth, the spawner and the wrappers, PSS summed, next to the
 *   tsp server and its per-job processes for 100 sleeping jobs.
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { tempDir } from './lib/cleanup.js';
import { withDaemon } from './lib/daemon.js';
import { cpu, cpuDelta, memory } from './lib/proc.js';
import { CLI } from './lib/spawn.js';
import { fmt, median } from './lib/stats.js';
import { findTsp, startTsp, type TspServer } from './lib/tsp.js';
import { atMost, info, type Bench, type Figure } from './lib/types.js';

const TASKS = 250;
const PARALLEL = 8;
const SLEEPERS = 100;

const children = (pid: number): number[] =>
  readdirSync('/proc')
    .filter((n) => /^\d+$/.test(n))
    .map(Number)
    .filter((p) => {
      try {
        const st = readFileSync(`/proc/${p}/stat`, 'utf8');
        return Number(st.slice(st.lastIndexOf(')') + 2).split(' ')[1]) === pid;
      } catch {
        return false;
      }
    });

const cmdline = (pid: number): string[] => {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
  } catch {
    return [];
  }
};

/** Processes with TS_SOCKET=socket in their environment (a tsp server and its job clients). */
const withSocket = (socket: string): number[] =>
  readdirSync('/proc')
    .filter((n) => /^\d+$/.test(n))
    .map(Number)
    .filter((p) => {
      try {
        return readFileSync(`/proc/${p}/environ`, 'utf8').split('\0').includes(`TS_SOCKET=${socket}`);
      } catch {
        return false;
      }
    });

const spawnerOf = (daemon: number) => children(daemon).find((p) => cmdline(p).includes('nightshift-spawner'));
const nodeHelpers = (daemon: number) => children(daemon).filter((p) => /(^|\/)node$/.test(cmdline(p)[0] ?? ''));

function workflowFile(dir: string): string {
  const lines = ['name: fan-out', 'tasks:'];
  for (let i = 0; i < TASKS; i++) lines.push(`  t${i}:`, '    command: ["true"]', '    group: fan');
  const file = join(dir, 'fan.yaml');
  writeFileSync(file, lines.join('\n') + '\n');
  return file;
}

function runCli(args: string[], env: Record<string, string>): Promise<{ ms: number; code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const p = spawn(process.execPath, [CLI, ...args], { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    p.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    p.once('error', reject);
    p.once('exit', (code) => resolve({ ms: performance.now() - t0, code, stderr }));
  });
}

/** Counts from an strace log: journal appends (each an O_DSYNC write), fsync-family calls, execs. */
function straceCounts(log: string): { journalWrites: number; syncs: number; execs: number } {
  const text = readFileSync(log, 'utf8');
  const lines = text.split('\n');
  return {
    journalWrites: lines.filter((l) => /\b(p?write(64)?|writev)\(\d+<[^>]*tasks\.json\.journal>/.test(l)).length,
    syncs: lines.filter((l) => /\b(fsync|fdatasync)\(/.test(l)).length,
    // Only the execs that succeeded (an exec'd PATH search tries each directory): `= 0` on the call's
    // own line, or on its `resumed` line when strace split it around another process's call.
    execs: lines.filter((l) => /(\bexecve\(.*|<\.\.\. execve resumed>.*)\) += 0$/.test(l)).length,
  };
}

const hasStrace = () => spawnSync('strace', ['-V'], { encoding: 'utf8' }).status === 0;

async function tspFanOut(tsp: TspServer): Promise<number> {
  const t0 = performance.now();
  for (let i = 0; i < TASKS; i++) await tsp.add(['true']);
  for (;;) {
    const list = execFileSync(tsp.bin, [], { env: tsp.env, encoding: 'utf8' });
    if (!/\b(running|queued)\b/.test(list)) break;
    await sleep(10);
  }
  return performance.now() - t0;
}

const pss = (pid: number) => {
  try {
    return memory(pid).pssKiB;
  } catch {
    return 0;
  }
};

export const startPath: Bench = {
  name: 'start-path',
  title: `${TASKS} \`true\` tasks as one workflow (group of ${PARALLEL}) vs tsp -S ${PARALLEL}; daemon CPU, journal syncs and execs per task; ${SLEEPERS} sleeping tasks' PSS`,
  budgetSeconds: 600,
  async run(o, say) {
    const rounds = o.quick ? 1 : 3;
    const work = tempDir('ns-bench-start-');
    const figs: Figure[] = [];
    try {
      const file = workflowFile(work.dir);
      const tspFound = findTsp({ PATH: process.env['PATH'] ?? '' });
      if ('missing' in tspFound) say(`SKIPPED the tsp figures: ${tspFound.missing}`);
      const walls: number[] = [];
      const peerWalls: number[] = [];
      const cpuPerTask: number[] = [];
      const spawnerPerTask: number[] = [];
      for (let r = 0; r < rounds; r++) {
        await withDaemon({}, async ({ client, pid, cliEnv }) => {
          await client.addGroup('fan', PARALLEL);
          await client.run({ command: ['true'], cwd: work.dir, env: { PATH: process.env['PATH'] ?? '' } }); // the spawner starts with the first task
          await sleep(300);
          const helpers = [pid, ...nodeHelpers(pid)];
          const spawner = spawnerOf(pid);
          const c0 = helpers.map(cpu);
          const s0 = spawner ? cpu(spawner) : undefined;
          const run = await runCli(['workflow', 'run', file, '--wait'], { ...cliEnv, PATH: process.env['PATH'] ?? '' });
          if (run.code !== 0) throw new Error(`workflow run exited ${run.code}: ${run.stderr.slice(0, 400)}`);
          const used = helpers.reduce((a, p, i) => a + cpuDelta(c0[i] as ReturnType<typeof cpu>, cpu(p)).schedMs, 0);
          walls.push(run.ms);
          cpuPerTask.push(used / TASKS);
          if (spawner && s0) spawnerPerTask.push(cpuDelta(s0, cpu(spawner)).schedMs / TASKS);
        });
        if ('bin' in tspFound) {
          const tsp = await startTsp(tspFound.bin, work.dir, PARALLEL, TASKS + 10, { PATH: process.env['PATH'] ?? '' });
          try {
            peerWalls.push(await tspFanOut(tsp));
          } finally {
            tsp.stop();
          }
        }
        say(
          `round ${r + 1}: nightshift ${fmt(walls.at(-1) ?? 0)} ms, tsp ${fmt(peerWalls.at(-1) ?? NaN)} ms; daemon CPU ${fmt(cpuPerTask.at(-1) ?? 0)} ms/task`,
        );
      }
      const wall = median(walls);
      figs.push(info(`${TASKS} true tasks, one workflow, group of ${PARALLEL}, --wait (median of ${rounds})`, wall, 'ms'));
      if (peerWalls.length > 0) {
        const peer = median(peerWalls);
        figs.push(info(`tsp -S ${PARALLEL}, ${TASKS} jobs (median of ${rounds})`, peer, 'ms'));
        figs.push(atMost('nightshift / tsp wall', wall / peer, '×', 1.3));
      }
      figs.push(atMost('daemon CPU per task (daemon + node helpers, schedstat)', median(cpuPerTask), 'ms', 1));
      if (spawnerPerTask.length > 0) figs.push(info('spawner (dash) CPU per task, its own forks', median(spawnerPerTask), 'ms'));

      if (hasStrace()) {
        await withDaemon({}, async ({ client, pid, cliEnv }) => {
          await client.addGroup('fan', PARALLEL);
          await client.run({ command: ['true'], cwd: work.dir, env: { PATH: process.env['PATH'] ?? '' } });
          await sleep(300);
          const spawner = spawnerOf(pid);
          const log = join(work.dir, 'strace.log');
          const targets = [pid, ...(spawner ? [spawner] : [])].flatMap((p) => ['-p', String(p)]);
          const st = spawn('strace', ['-f', '-qq', '-y', '-e', 'trace=execve,write,pwrite64,writev,fsync,fdatasync', '-o', log, ...targets], {
            stdio: 'ignore',
          });
          await sleep(1000); // attached
          const run = await runCli(['workflow', 'run', file, '--wait'], { ...cliEnv, PATH: process.env['PATH'] ?? '' });
          await sleep(500);
          if (st.pid !== undefined) process.kill(st.pid, 'SIGINT');
          await new Promise((r) => st.once('exit', r));
          if (run.code !== 0) throw new Error(`workflow run under strace exited ${run.code}`);
          const c = straceCounts(log);
          say(`under strace: ${c.journalWrites} journal writes, ${c.syncs} fsync/fdatasync, ${c.execs} execs for ${TASKS} tasks`);
          figs.push(info('durable journal writes per task (O_DSYNC appends + fsyncs)', (c.journalWrites + c.syncs) / TASKS, ''));
          figs.push(atMost('execs per task (wrappers and commands, from the spawner down)', c.execs / TASKS, '', 3));
        });
      } else say('SKIPPED the strace figures (journal syncs and execs per task): strace is not installed');

      await withDaemon({ maxParallel: SLEEPERS + 10 }, async ({ client, pid, env }) => {
        // A first round of as many tasks, killed, so the heap has grown to what such a round needs:
        // what the second round adds is what the idle tasks themselves hold.
        const warm: string[] = [];
        for (let i = 0; i < SLEEPERS; i++) warm.push((await client.run({ command: ['sleep', '120'], cwd: work.dir, env })).id);
        for (const id of warm) await client.kill(id, 'SIGKILL').catch(() => undefined);
        await sleep(2000);
        const before = pss(pid);
        const ids: string[] = [];
        for (let i = 0; i < SLEEPERS; i++) ids.push((await client.run({ command: ['sleep', '120'], cwd: work.dir, env })).id);
        await sleep(1500);
        const tasks = (await client.list()).filter((t) => ids.includes(t.id));
        const wrappers = tasks.map((t) => {
          const command = 'pid' in t ? t.pid : undefined;
          return command === undefined ? undefined : Number(readFileSync(`/proc/${command}/stat`, 'utf8').split(') ')[1]?.split(' ')[1]);
        });
        const spawner = spawnerOf(pid);
        const wrapperPss = wrappers.reduce<number>((a, w) => a + (w === undefined ? 0 : pss(w)), 0);
        const growth = Math.max(0, pss(pid) - before);
        const total = wrapperPss + (spawner ? pss(spawner) : 0) + growth;
        say(
          `${SLEEPERS} sleeping tasks: wrappers ${fmt(wrapperPss / 1024)} MiB PSS, spawner ${fmt((spawner ? pss(spawner) : 0) / 1024)} MiB, daemon growth ${fmt(growth / 1024)} MiB`,
        );
        figs.push(atMost(`${SLEEPERS} sleeping tasks, PSS summed (wrappers + spawner + daemon growth)`, total / 1024, 'MiB', 30));
        figs.push(info('per sleeping task (wrapper PSS)', wrapperPss / 1024 / SLEEPERS, 'MiB'));
        for (const id of ids) await client.kill(id, 'SIGKILL').catch(() => undefined);
      });
      if ('bin' in tspFound) {
        const tsp = await startTsp(tspFound.bin, work.dir, SLEEPERS + 10, SLEEPERS + 10, { PATH: process.env['PATH'] ?? '' });
        try {
          for (let i = 0; i < SLEEPERS; i++) await tsp.add(['sleep', '120']);
          await sleep(1500);
          // tsp's client stays behind as each job's parent (not a child of the server): found by its socket.
          const runners = withSocket(tsp.env['TS_SOCKET'] ?? '').filter((p) => p !== tsp.pid);
          const total = pss(tsp.pid) + runners.reduce((a, p) => a + pss(p), 0);
          say(`tsp: server + ${runners.length} per-job processes`);
          figs.push(info(`tsp: ${SLEEPERS} sleeping jobs, PSS summed (server + its per-job processes)`, total / 1024, 'MiB'));
          for (const p of runners) for (const c of children(p)) process.kill(c, 'SIGKILL');
        } finally {
          tsp.stop();
        }
      }
      return figs;
    } finally {
      work.remove();
    }
  },
};
