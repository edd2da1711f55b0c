/**
 * Restart with a large store: 100,000 memories and 250,000 episodes written to a home, then the
 * daemon of this build and of the baseline (main, built in a temporary worktree) started on copies
 * of it, alternately, several times. Figures: time from spawn to the first answer of `status`, to
 * memories loaded, to the first search of a project, and VmRSS; a third home with the same
 * memories and no episodes shows what the episodes cost in memory.
 */
import { cpSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { tempDir } from './lib/cleanup.js';
import { rng, recallQuery } from './lib/memgen.js';
import { statusKiB } from './lib/proc.js';
import { baselineCli, homePaths, startDaemon, waitStatus, writeConfig, writeEpisodes } from './lib/restart-home.js';
import { CLI } from './lib/spawn.js';
import { fmt, median } from './lib/stats.js';
import { atMost, info, type Bench, type Figure } from './lib/types.js';
import { memoryLines, seedStore } from './recall.js';

interface Run {
  firstAnswerMs: number;
  rssAtAnswerMiB: number;
  loadedMs: number;
  firstSearchMs: number;
  rssMiB: number;
}

const mib = (pid: number) => statusKiB(pid, 'VmRSS') / 1024;

export const restartBench: Bench = {
  name: 'restart',
  title: 'Daemon restart with 100,000 memories and 250,000 episodes: first answer, load, first search, VmRSS; this build vs main',
  budgetSeconds: 300,
  async run(o, say) {
    const [memories, episodes] = o.quick ? [10_000, 25_000] : [100_000, 250_000];
    const runs = o.quick ? 1 : 3;
    const projects = Array.from({ length: 25 }, (_, i) => `/bench/project-${i}`);
    const work = tempDir('ns-bench-restart-');
    const base = baselineCli(say);
    try {
      const homes = { now: join(work.dir, 'n'), base: join(work.dir, 'b'), none: join(work.dir, 'c') };
      let t = performance.now();
      for (const home of [homes.now, homes.none]) {
        mkdirSync(home);
        const paths = homePaths(home);
        writeConfig(paths);
        seedStore(paths, memoryLines(rng(20261201), memories, projects[0] as string, Date.parse('2026-11-20T00:00:00Z')), projects[0] as string);
      }
      writeEpisodes(homePaths(homes.now), episodes, 100, projects, 20261202);
      cpSync(homes.now, homes.base, { recursive: true });
      say(
        `wrote ${memories} memories and ${episodes} episodes (${episodes / 100} sessions over ${projects.length} projects) in ${fmt((performance.now() - t) / 1000)} s`,
      );

      // This build indexes session files it does not know once, in the background; restarts then read the index.
      t = performance.now();
      const first = await startDaemon(CLI, homes.now);
      await waitStatus(first.client, (s) => (s.memory?.episodes ?? 0) >= episodes && s.memory?.loading !== true);
      const indexS = (performance.now() - t) / 1000;
      say(`first start of this build on the home: answered after ${fmt(first.firstAnswerMs)} ms, all ${episodes} episodes indexed after ${fmt(indexS)} s`);
      await first.stop();

      const query = recallQuery(rng(5));
      const measure = async (cli: string, home: string): Promise<Run> => {
        const d = await startDaemon(cli, home);
        try {
          const rssAtAnswerMiB = mib(d.pid);
          const t0 = performance.now();
          const s = await waitStatus(d.client, (x) => x.memory?.loading !== true);
          const loadedMs = d.firstAnswerMs + (performance.now() - t0);
          if (s.memory?.memories !== memories) throw new Error(`${home}: ${s.memory?.memories} memories loaded, expected ${memories}`);
          const t1 = performance.now();
          await d.client.search({ q: query, project: projects[1], limit: 10 });
          const firstSearchMs = performance.now() - t1;
          return { firstAnswerMs: d.firstAnswerMs, rssAtAnswerMiB, loadedMs, firstSearchMs, rssMiB: mib(d.pid) };
        } finally {
          await d.stop();
        }
      };
      const results: Record<keyof typeof homes, Run[]> = { now: [], base: [], none: [] };
      for (let i = 0; i < runs; i++) {
        for (const [key, cli] of [
          ['now', CLI],
          ['base', base.cli],
          ['none', CLI],
        ] as const) {
          const r = await measure(cli, homes[key]);
          results[key].push(r);
          say(
            `${key.padEnd(4)} run ${i + 1}: first answer ${fmt(r.firstAnswerMs)} ms (VmRSS ${fmt(r.rssAtAnswerMiB)} MiB), memories loaded ${fmt(r.loadedMs)} ms, ` +
              `first search ${fmt(r.firstSearchMs)} ms, then VmRSS ${fmt(r.rssMiB)} MiB`,
          );
        }
      }
      const med = (key: keyof typeof homes, f: keyof Run) => median(results[key].map((r) => r[f]));
      const label = `${memories / 1000}k memories + ${episodes / 1000}k episodes`;
      const figures: Figure[] = [
        atMost(`${label}: first status answer after spawn, this build`, med('now', 'firstAnswerMs'), 'ms', 1000),
        info(
          `${label}: first status answer, baseline ${base.ref}`,
          med('base', 'firstAnswerMs'),
          'ms',
          `${fmt(med('base', 'firstAnswerMs') / med('now', 'firstAnswerMs'))} × this build`,
        ),
        info(`${label}: memories loaded and indexed, this build`, med('now', 'loadedMs'), 'ms', `baseline ${fmt(med('base', 'loadedMs'))} ms`),
        info(`${label}: first search of a project after that`, med('now', 'firstSearchMs'), 'ms', `baseline ${fmt(med('base', 'firstSearchMs'))} ms`),
        info(`${label}: VmRSS at the first answer, this build`, med('now', 'rssAtAnswerMiB'), 'MiB', `baseline ${fmt(med('base', 'rssAtAnswerMiB'))} MiB`),
        info(`${label}: VmRSS loaded + one search, this build`, med('now', 'rssMiB'), 'MiB', `baseline ${fmt(med('base', 'rssMiB'))} MiB`),
        info(`${memories / 1000}k memories, no episodes: VmRSS loaded + one search`, med('none', 'rssMiB'), 'MiB'),
        atMost(
          `VmRSS that ${episodes / 1000}k episodes add (vs none), this build`,
          med('now', 'rssMiB') - med('none', 'rssMiB'),
          'MiB',
          Math.round(0.1 * med('none', 'rssMiB')),
        ),
        info(
          `VmRSS that ${episodes / 1000}k episodes add, baseline`,
          med('base', 'rssMiB') - med('none', 'rssMiB'),
          'MiB',
          'against this build without episodes',
        ),
        info(`first start of this build: all episodes indexed`, indexS, 's'),
      ];
      return figures;
    } finally {
      base.remove();
      work.remove();
    }
  },
};
