/**
 * Memory over many real sessions of one person (../shared/benchmarks/longitudinal/, read in place,
 * never copied): its scorer on this build beside its trivial peer (`--peer`: the person's newest
 * sentences per project up to the budget), in the same run. Targets: final state recalled ≥ 0.65,
 * stale ≤ 1, junk ≤ 2. Then the set's ingest into a fresh daemon through one `nightshift ingest`
 * of all its files (median of three, ≤ 2 s), beside the same through one CLI process per file;
 * and how long the daemon keeps a status request waiting while it ingests (p95 ≤ 50 ms, the prompt
 * hook's budget on the daemon side), beside the same request when it is idle and, given a baseline
 * build (lib/restart-home.ts `optionalBaseline`), beside the baseline's daemon in the same rounds.
 */
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import type { ApiClient } from '../src/client/api-client.js';
import { tempDir } from './lib/cleanup.js';
import { withDaemon } from './lib/daemon.js';
import { homePaths, optionalBaseline, startDaemon, writeConfig } from './lib/restart-home.js';
import { cli, timeNode } from './lib/spawn.js';
import { fmt, median, percentile } from './lib/stats.js';
import { atLeast, atMost, info, type Bench, type Figure } from './lib/types.js';

const run = promisify(execFile);
const ROOT = resolve(import.meta.dirname, '..');

/** NIGHTSHIFT_LONGITUDINAL, or shared/benchmarks/longitudinal in a directory above the checkout. */
function setDir(): string | undefined {
  const given = process.env.NIGHTSHIFT_LONGITUDINAL;
  if (given !== undefined) return existsSync(join(given, 'score.mjs')) ? given : undefined;
  for (let dir = ROOT; dir !== dirname(dir); dir = dirname(dir)) {
    const candidate = join(dir, 'shared', 'benchmarks', 'longitudinal');
    if (existsSync(join(candidate, 'score.mjs'))) return candidate;
  }
  return undefined;
}

/** Latencies of status requests, one after another with a 10 ms pause, while `busy()` says so, at most `n`. */
async function statusLatencies(client: ApiClient, busy: () => boolean, n = Infinity): Promise<number[]> {
  const out: number[] = [];
  while (busy() && out.length < n) {
    const t0 = performance.now();
    await client.status();
    out.push(performance.now() - t0);
    await new Promise((r) => setTimeout(r, 10));
  }
  return out;
}

const figuresOf = (line: string) => ({
  final: Number(/final recalled \d+\/\d+ \(([\d.]+)\)/.exec(line)?.[1] ?? Number.NaN),
  stale: Number(/stale recalled (\d+)\//.exec(line)?.[1] ?? Number.NaN),
  junk: Number(/junk recalled (\d+)\//.exec(line)?.[1] ?? Number.NaN),
});

export const longitudinalBench: Bench = {
  name: 'longitudinal',
  title: 'many real sessions of one person in time order: the final state recalled after a dream, beside the newest sentences',
  budgetSeconds: 300,
  async run(_o, say) {
    const dir = setDir();
    if (dir === undefined) {
      say('the longitudinal set was not found (set NIGHTSHIFT_LONGITUDINAL to its directory); skipped');
      return [];
    }
    const lines = async (...args: string[]) => (await run('node', [join(dir, 'score.mjs'), ROOT, ...args], { maxBuffer: 64 << 20 })).stdout.trim().split('\n');
    const ours = await lines();
    const peer = await lines('--peer');
    for (const l of ours) say(`nightshift ${l}`);
    say(`peer       ${peer.at(-1) ?? ''}`);
    const a = figuresOf(ours.at(-1) ?? '');
    const p = figuresOf(peer.at(-1) ?? '');
    const figures: Figure[] = [
      atLeast('final state recalled', a.final, 'ratio', 0.65),
      info('peer (newest sentences): final state recalled', p.final, 'ratio'),
      atMost('stale recalled', a.stale, '', 1),
      info('peer: stale recalled', p.stale, ''),
      atMost('junk recalled', a.junk, '', 2),
      info('peer: junk recalled', p.junk, ''),
    ];
    const sessions = (JSON.parse(readFileSync(join(dir, 'athena', 'labels.json'), 'utf8')) as { sessions: { file: string }[] }).sessions;
    const files = sessions.map((s) => join(dir, 'athena', s.file));
    const config = { transcripts: { watch: false } };
    // Each run a fresh daemon: the first ingest also loads the language model, as it would in use.
    const oneCall: { wall: number; daemon: number }[] = [];
    for (let round = 0; round < 3; round++)
      oneCall.push(
        await withDaemon(config, async (d) => {
          const r = await cli(['ingest', ...files, '--format', 'claude-code', '--json'], d.cliEnv, 120_000);
          const inDaemon = (JSON.parse(r.stdout) as { durationMs: number }[]).reduce((n, x) => n + x.durationMs, 0);
          return { wall: r.ms / 1000, daemon: inDaemon / 1000 };
        }),
      );
    // Apart from the timed rounds: the requests take the daemon's time too.
    const base = optionalBaseline(say);
    const idle: number[] = [];
    const ingesting: number[] = [];
    const baseIngesting: number[] = [];
    try {
      for (let round = 0; round < 2; round++) {
        await withDaemon(config, async (d) => {
          idle.push(...(await statusLatencies(d.client, () => true, 50)));
          let running = true;
          const asked = statusLatencies(d.client, () => running);
          await cli(['ingest', ...files, '--format', 'claude-code', '--json'], d.cliEnv, 120_000).finally(() => (running = false));
          ingesting.push(...(await asked));
        });
        if (base === undefined) continue;
        const home = tempDir('ns-bench-longi-base-');
        try {
          writeConfig(homePaths(home.dir));
          const b = await startDaemon(base.cli, home.dir);
          try {
            let running = true;
            const asked = statusLatencies(b.client, () => running);
            const env = { ...(process.env as Record<string, string>), NIGHTSHIFT_HOME: home.dir, NIGHTSHIFT_NO_AUTOSTART: '1' };
            await timeNode([base.cli, 'ingest', ...files, '--format', 'claude-code', '--json'], env, 120_000).finally(() => (running = false));
            baseIngesting.push(...(await asked));
          } finally {
            await b.stop();
          }
        } finally {
          home.remove();
        }
      }
    } finally {
      base?.remove();
    }
    const perFile = await withDaemon(config, async (d) => {
      let ms = 0;
      for (const f of files) ms += (await cli(['ingest', f, '--format', 'claude-code', '--json'], d.cliEnv, 60_000)).ms;
      return ms / 1000;
    });
    const wall = median(oneCall.map((r) => r.wall));
    say(
      `ingest of the ${files.length} sessions through one CLI call: ${oneCall.map((r) => fmt(r.wall)).join(', ')} s (in the daemon ${oneCall.map((r) => fmt(r.daemon)).join(', ')} s); one CLI process per file: ${fmt(perFile)} s`,
    );
    say(
      `status requests while it ingests: ${ingesting.length}, p50 ${fmt(percentile(ingesting, 50))} ms, p95 ${fmt(percentile(ingesting, 95))} ms, longest ${fmt(Math.max(...ingesting))} ms; idle p95 ${fmt(percentile(idle, 95))} ms`,
    );
    figures.push(
      atMost('ingest of the set, one CLI call (median of 3)', wall, 's', 2),
      info('of it in the daemon (median)', median(oneCall.map((r) => r.daemon)), 's'),
      info('peer: the same through one CLI process per file', perFile, 's'),
      atMost('a status request while the daemon ingests, p95', percentile(ingesting, 95), 'ms', 50),
      info('the same request when the daemon is idle, p95', percentile(idle, 95), 'ms'),
      info('a status request while the daemon ingests, the longest', Math.max(...ingesting), 'ms'),
    );
    if (baseIngesting.length > 0) {
      say(
        `baseline ${base?.ref}: status requests while it ingests: ${baseIngesting.length}, p50 ${fmt(percentile(baseIngesting, 50))} ms, p95 ${fmt(percentile(baseIngesting, 95))} ms, longest ${fmt(Math.max(...baseIngesting))} ms`,
      );
      figures.push(
        info(`baseline ${base?.ref}: a status request while its daemon ingests, p95`, percentile(baseIngesting, 95), 'ms'),
        info(`baseline ${base?.ref}: the longest`, Math.max(...baseIngesting), 'ms'),
      );
    }
    return figures;
  },
};
