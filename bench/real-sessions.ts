/**
 * Memories on real sessions: runs the shared scorer (../shared/benchmarks/real-sessions/score.mjs,
 * read in place, never copied) on this build, beside its trivial peer (baseline.mjs: a dump of the
 * user's own sentences within the budget) measured in the same run, and times an ingest of every
 * labelled file into one fresh daemon. Targets: wanted ≥ 0.60, junk ≤ 2, foreign 0, on-target ≥ 0.50,
 * every memory with provenance, the whole set ingested in ≤ 10 s.
 */
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { promisify } from 'node:util';
import { withDaemon } from './lib/daemon.js';
import { cli } from './lib/spawn.js';
import { fmt } from './lib/stats.js';
import { atLeast, atMost, info, type Bench, type Figure } from './lib/types.js';

const run = promisify(execFile);
const ROOT = resolve(import.meta.dirname, '..');

/** The corpus: NIGHTSHIFT_REAL_SESSIONS, or shared/benchmarks/real-sessions in a directory above the checkout. */
export function corpusDir(): string | undefined {
  const given = process.env.NIGHTSHIFT_REAL_SESSIONS;
  if (given !== undefined) return existsSync(join(given, 'labels.json')) ? given : undefined;
  for (let dir = ROOT; dir !== dirname(dir); dir = dirname(dir)) {
    const candidate = join(dir, 'shared', 'benchmarks', 'real-sessions');
    if (existsSync(join(candidate, 'labels.json'))) return candidate;
  }
  return undefined;
}

const num = (line: string, re: RegExp): number => Number(re.exec(line)?.[1] ?? Number.NaN);

interface Label {
  file: string;
  format: string;
}

export const realSessionsBench: Bench = {
  name: 'real-sessions',
  title: 'memories on real labelled Claude Code and Codex sessions (the shared scorer) beside a dump of user sentences',
  budgetSeconds: 600,
  async run(_o, say) {
    const dir = corpusDir();
    if (dir === undefined) {
      say('the real-sessions corpus was not found (set NIGHTSHIFT_REAL_SESSIONS to its directory); skipped');
      return [];
    }
    const scored = await run('node', [join(dir, 'score.mjs'), ROOT], { maxBuffer: 64 << 20 });
    const line = scored.stdout.trim().split('\n').pop() ?? '';
    const peer = (await run('node', [join(dir, 'baseline.mjs')])).stdout.trim();
    say(`nightshift: ${line}`);
    say(`peer:       ${peer}`);
    const wanted = num(line, /wanted recalled \d+\/\d+ \(([\d.]+)\)/);
    const figures: Figure[] = [
      atLeast('wanted recalled', wanted, 'ratio', 0.6),
      info('peer (dump of user sentences): wanted recalled', num(peer, /wanted recalled \d+\/\d+ \(([\d.]+)\)/), 'ratio', 'same corpus, same scoring'),
      atMost('junk recalled', num(line, /junk recalled (\d+)/), '', 2),
      info('peer: junk recalled', num(peer, /junk recalled (\d+)/), ''),
      atMost('foreign items', num(line, /foreign items (\d+)/), '', 0),
      atLeast('on-target memory items', num(line, /on-target memory items \d+\/\d+ \(([\d.]+)\)/), 'ratio', 0.5),
      info('peer: on-target items', num(peer, /on-target items \d+\/\d+ \(([\d.]+)\)/), 'ratio'),
      atMost('memories without provenance', num(line, /no provenance (\d+)/), '', 0),
    ];
    // The whole set, ingested into one fresh daemon through its API (one client, as the hooks and the
    // watcher hand transcripts over), and again through the CLI, one process per file.
    const labels = JSON.parse(readFileSync(join(dir, 'labels.json'), 'utf8')) as Label[];
    const timed = await withDaemon({ transcripts: { watch: false } }, async (d) => {
      const t0 = performance.now();
      let daemonMs = 0;
      for (const l of labels)
        daemonMs += (await d.client.ingest({ path: join(dir, l.file), format: l.format as 'claude-code' | 'codex' })).summary?.durationMs ?? 0;
      return { wall: (performance.now() - t0) / 1000, daemon: daemonMs / 1000 };
    });
    const viaCli = await withDaemon({ transcripts: { watch: false } }, async (d) => {
      const t0 = performance.now();
      for (const l of labels) await cli(['ingest', join(dir, l.file), '--format', l.format, '--json'], d.cliEnv, 60_000);
      return (performance.now() - t0) / 1000;
    });
    say(
      `ingest of all ${labels.length} files: ${fmt(timed.wall)} s through the API (${fmt(timed.daemon)} s of it in the daemon's ingest), ${fmt(viaCli)} s through ${labels.length} CLI processes`,
    );
    figures.push(atMost('ingest of the whole dev half (API)', timed.wall, 's', 10));
    figures.push(info('the same through one CLI process per file', viaCli, 's'));
    return figures;
  },
};
