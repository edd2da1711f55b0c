/**
 * How fast the CLI starts a task, beside what it is built on and what it competes with, all in the
 * same rounds (order alternated): `nightshift run -- true` next to `node -e 0` (any Node program's
 * floor here); `run -- true` + `wait` next to task-spooler's `tsp true` + `tsp -w` (a small C task
 * queue with a server, output to a file: the closest peer); and a 256 MiB capture end to end,
 * `run -- head -c 268435456 /dev/zero` + `wait`, next to tsp doing the same (and a plain shell
 * redirect, the floor). Wall time from spawn to the close of each process's output.
 *
 * task-spooler is not installed by this bench: its binary is `tsp` on Debian (`ts` elsewhere; the
 * `ts` of moreutils is something else, so the binary must say "Task Spooler" to `-V`). Without it
 * the tsp figures are skipped, and the run says so.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { defer, tempDir } from './lib/cleanup.js';
import { findTsp } from './lib/tsp.js';
import { timeShell, withDaemon } from './lib/daemon.js';
import { CLI, timeNode, timeProcess, type Spawned } from './lib/spawn.js';
import { fmt, median } from './lib/stats.js';
import { atMost, info, type Bench, type Figure } from './lib/types.js';

const RATIO_TARGET = 1.3;
const BIG = 268_435_456;

const ok = (r: Spawned, what: string): Spawned => {
  if (r.code !== 0) throw new Error(`${what} exited ${r.code}: ${r.stderr.slice(0, 500)}`);
  return r;
};

/** Median of per-round ratios a/b (pairing keeps the ratio meaningful while the machine drifts). */
const pairedRatio = (a: number[], b: number[]) => median(a.map((x, i) => x / (b[i] as number)));

export const cliSpeed: Bench = {
  name: 'cli-speed',
  title: 'CLI speed: run -- true vs node -e 0; run+wait vs tsp; 256 MiB capture end to end vs tsp',
  budgetSeconds: 300,
  async run(o, say) {
    const small = o.quick ? 5 : 21;
    const big = o.quick ? 3 : 9;
    const work = tempDir('ns-bench-cli-');
    try {
      return await withDaemon({}, async ({ client, cliEnv }) => {
        const ns = (args: string[]) => timeNode([CLI, ...args], cliEnv, 120_000);
        const tsp = findTsp(cliEnv);
        const tspEnv = { ...cliEnv, TS_SOCKET: join(work.dir, 'tsp.sock'), TMPDIR: join(work.dir, 'tsp-out'), TS_MAXFINISHED: '1000' };
        mkdirSync(tspEnv.TMPDIR);
        // The tsp server this bench starts (on its own socket) is told to quit when done, or on interrupt.
        const stopTsp = () => 'bin' in tsp && spawnSync(tsp.bin, ['-K'], { env: tspEnv, timeout: 5000 });
        const dropTsp = defer(stopTsp);
        if ('missing' in tsp) say(`SKIPPED the tsp figures: ${tsp.missing}`);
        else
          say(
            `peer: ${tsp.bin} (${spawnSync(tsp.bin, ['-V'], { env: tspEnv, encoding: 'utf8' }).stdout.split('\n')[0] ?? ''}), its own server on ${tspEnv.TS_SOCKET}`,
          );

        const runWait = async (cmd: string[]): Promise<{ ms: number; id: string }> => {
          const t0 = performance.now();
          const id = ok(await ns(['run', '--cwd', work.dir, '--', ...cmd]), 'nightshift run').stdout.trim();
          const w = await ns(['wait', id]);
          if (w.code !== 0) throw new Error(`nightshift wait ${id} exited ${w.code}`);
          return { ms: performance.now() - t0, id };
        };
        const tspWait = async (bin: string, cmd: string[]): Promise<{ ms: number; id: string }> => {
          const t0 = performance.now();
          const id = ok(await timeProcess(bin, cmd, { env: tspEnv }), 'tsp').stdout.trim();
          ok(await timeProcess(bin, ['-w', id], { env: tspEnv, timeoutMs: 120_000 }), `tsp -w ${id}`);
          return { ms: performance.now() - t0, id };
        };

        // ── run -- true, alone and with wait ──
        const t = { run: [] as number[], node: [] as number[], runWait: [] as number[], tsp: [] as number[] };
        for (let i = -1; i < small; i++) {
          const steps: Array<() => Promise<void>> = [
            async () => void t.node.push(ok(await timeNode(['-e', '0'], cliEnv), 'node -e 0').ms),
            async () => {
              const r = ok(await ns(['run', '--cwd', work.dir, '--', 'true']), 'nightshift run');
              t.run.push(r.ms);
              await ns(['wait', r.stdout.trim()]);
            },
            async () => void t.runWait.push((await runWait(['true'])).ms),
            async () => {
              if ('bin' in tsp) t.tsp.push((await tspWait(tsp.bin, ['true'])).ms);
            },
          ];
          for (const step of i % 2 === 0 ? steps : [...steps].reverse()) await step();
          if (i < 0) for (const xs of Object.values(t)) xs.length = 0; // warm-up round
        }
        for (const task of await client.list(true)) await client.remove(task.id);
        say(
          `run -- true: ${fmt(median(t.run))} ms; node -e 0: ${fmt(median(t.node))} ms; run + wait: ${fmt(median(t.runWait))} ms${t.tsp.length ? `; tsp true + tsp -w: ${fmt(median(t.tsp))} ms` : ''} (medians of ${small})`,
        );

        // ── 256 MiB captured end to end ──
        const b = { ns: [] as number[], tsp: [] as number[], shell: [] as number[] };
        const cmd = ['head', '-c', String(BIG), '/dev/zero'];
        for (let i = 0; i < big; i++) {
          const steps: Array<() => Promise<void>> = [
            async () => {
              const r = await runWait(cmd);
              const task = await client.get(r.id);
              if (task.outputBytes !== BIG) throw new Error(`task ${r.id} captured ${task.outputBytes} bytes`);
              await client.remove(r.id);
              b.ns.push(r.ms);
            },
            async () => {
              if (!('bin' in tsp)) return;
              const r = await tspWait(tsp.bin, cmd);
              const out = ok(await timeProcess(tsp.bin, ['-o', r.id], { env: tspEnv }), 'tsp -o').stdout.trim();
              if (statSync(out).size !== BIG) throw new Error(`tsp job ${r.id} captured ${statSync(out).size} bytes`);
              for (const f of readdirSync(tspEnv.TMPDIR)) rmSync(join(tspEnv.TMPDIR, f), { force: true });
              b.tsp.push(r.ms);
            },
            async () => {
              const file = join(work.dir, 'shell.out');
              const r = await timeShell(`head -c ${BIG} /dev/zero > ${file}`, work.dir);
              if (r.code !== 0) throw new Error(`shell redirect exited ${r.code}`);
              rmSync(file);
              b.shell.push(r.ms);
            },
          ];
          for (const step of i % 2 === 0 ? steps : [...steps].reverse()) await step();
        }
        say(
          `256 MiB: run + wait ${fmt(median(b.ns))} ms${b.tsp.length ? `; tsp + tsp -w ${fmt(median(b.tsp))} ms` : ''}; sh -c 'head … > file' ${fmt(median(b.shell))} ms (medians of ${big})`,
        );
        stopTsp();
        dropTsp();

        const figures: Figure[] = [
          atMost('nightshift run -- true / node -e 0 (median of per-round ratios)', pairedRatio(t.run, t.node), '×', RATIO_TARGET),
          info('nightshift run -- true, p50', median(t.run), 'ms', `node -e 0 ${fmt(median(t.node))} ms`),
          info('nightshift run -- true + nightshift wait, p50', median(t.runWait), 'ms'),
        ];
        if (t.tsp.length) {
          figures.push(
            info('tsp true + tsp -w (peer), p50', median(t.tsp), 'ms'),
            info('run + wait / tsp + tsp -w, true (median of per-round ratios)', pairedRatio(t.runWait, t.tsp), '×'),
            atMost('256 MiB: run + wait / tsp + tsp -w (median of per-round ratios)', pairedRatio(b.ns, b.tsp), '×', RATIO_TARGET),
            info('256 MiB: tsp + tsp -w (peer), p50', median(b.tsp), 'ms'),
          );
        } else {
          figures.push(info('tsp figures skipped: task-spooler not installed (see the log); the 256 MiB target was not checked', 0, ''));
        }
        figures.push(
          info('256 MiB: run + wait, p50', median(b.ns), 'ms'),
          info("256 MiB: sh -c 'head … > file' (floor), p50", median(b.shell), 'ms', `run + wait / shell ${fmt(pairedRatio(b.ns, b.shell))} ×`),
        );
        return figures;
      });
    } finally {
      work.remove();
    }
  },
};
