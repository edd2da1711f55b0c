/**
 * Memories on real sessions: runs the shared scorer (../shared/benchmarks/real-sessions/score.mjs,
 * read in place, never copied) on this build, beside its trivial peer (baseline.mjs: a dump of the
 * user's own sentences within the budget) measured in the same run, and times an ingest of every
 * labelled file into one fresh daemon. Targets: wanted ≥ 0.75, junk ≤ 8, foreign 0, on-target ≥ 0.55,
 * each of the scorer's three folds within 0.10 of the whole, every memory with provenance, the whole
 * set ingested in ≤ 5 s (beside the baseline build's ingest of the same files when there is one:
 * lib/restart-home.ts `optionalBaseline`, NIGHTSHIFT_BASELINE_REF or _CLI). The ranker's fit
 * (src/memory/rank/weights.json) was made on this corpus, so these figures are in sample:
 * bench/out-of-fold.ts, not this, estimates unseen sessions.
 *
 * `tsx bench/real-sessions.ts --extractor claude-cli` (or NIGHTSHIFT_BENCH_EXTRACTOR=claude-cli with
 * bench/run.ts) scores the same corpus with that extractor: with a Claude login, the quality of
 * model extraction through the person's own CLI. The targets above are the heuristics'.
 */
import { execFile } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { tempDir } from './lib/cleanup.js';
import { withDaemon } from './lib/daemon.js';
import { homePaths, optionalBaseline, startDaemon, writeConfig } from './lib/restart-home.js';
import { scorerCheckout } from './lib/scorer-shim.js';
import { cli } from './lib/spawn.js';
import { fmt } from './lib/stats.js';
import type { ApiClient } from '../src/client/api-client.js';
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

/** The extractor to score: --extractor NAME on the command line, or NIGHTSHIFT_BENCH_EXTRACTOR. */
function extractorArg(): string | undefined {
  const i = process.argv.indexOf('--extractor');
  return (i >= 0 ? process.argv[i + 1] : undefined) ?? process.env.NIGHTSHIFT_BENCH_EXTRACTOR;
}

/** The scorer's last two lines (the budget line, the figures) for this build, with `extractor` when given, on one fold when given. */
async function score(dir: string, extractor: string | undefined, fold?: string): Promise<string> {
  const checkout =
    extractor === undefined
      ? ROOT
      : scorerCheckout(ROOT, { extractor, ...(extractor === 'claude-cli' && { claudePath: process.env.NIGHTSHIFT_CLAUDE ?? 'claude' }) });
  try {
    const scored = await run('node', [join(dir, 'score.mjs'), checkout, ...(fold === undefined ? [] : ['--fold', fold])], { maxBuffer: 64 << 20 });
    return scored.stdout.trim().split('\n').slice(-2).join('\n');
  } finally {
    if (checkout !== ROOT) rmSync(checkout, { recursive: true, force: true });
  }
}

interface FitTally {
  wanted: number;
  wantedTotal: number;
  junk: number;
}

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
    const extractor = extractorArg();
    if (extractor !== undefined) say(`extractor: ${extractor} (the targets are the heuristics')`);
    const line = await score(dir, extractor);
    const peer = (await run('node', [join(dir, 'baseline.mjs')])).stdout.trim();
    say(`nightshift: ${line}`);
    say(`peer:       ${peer}`);
    const wanted = num(line, /wanted recalled \d+\/\d+ \(([\d.]+)\)/);
    const folds: number[] = [];
    for (const k of [1, 2, 3]) {
      const f = await score(dir, extractor, `${k}/3`);
      say(`fold ${k}/3: ${f.split('\n').pop() ?? ''}`);
      folds.push(num(f, /wanted recalled \d+\/\d+ \(([\d.]+)\)/));
    }
    const weights = JSON.parse(readFileSync(join(ROOT, 'src/memory/rank/weights.json'), 'utf8')) as {
      report: { corpora: { name: string; leaveOneGroupOut: FitTally; outOfFold: FitTally[] }[] };
    };
    const fitted = weights.report.corpora.find((c) => c.name === 'real-sessions');
    const logo = fitted?.leaveOneGroupOut ?? { wanted: 0, wantedTotal: 1, junk: 0 };
    const oof = fitted?.outOfFold ?? [];
    const figures: Figure[] = [
      atLeast('wanted recalled', wanted, 'ratio', 0.75),
      info('the fit, out of fold (leave one group out): wanted recalled', logo.wanted / logo.wantedTotal, 'ratio', `junk ${logo.junk}; npm run fit:ranker`),
      info(
        "the fit, out of fold (the scorer's 3 folds): wanted recalled",
        (oof.at(-1)?.wanted ?? 0) / (oof.at(-1)?.wantedTotal ?? 1),
        'ratio',
        `per fold ${oof
          .slice(0, -1)
          .map((t) => (t.wanted / t.wantedTotal).toFixed(2))
          .join(' / ')}; junk ${oof.at(-1)?.junk ?? 0}`,
      ),
      atMost('fold furthest from the whole (|fold − whole| of wanted recalled)', Math.max(...folds.map((f) => Math.abs(f - wanted))), '', 0.1),
      info('peer (dump of user sentences): wanted recalled', num(peer, /wanted recalled \d+\/\d+ \(([\d.]+)\)/), 'ratio', 'same corpus, same scoring'),
      atMost('junk recalled', num(line, /junk recalled (\d+)/), '', 8),
      info('peer: junk recalled', num(peer, /junk recalled (\d+)/), ''),
      atMost('foreign items', num(line, /foreign items (\d+)/), '', 0),
      atLeast('on-target memory items', num(line, /on-target memory items \d+\/\d+ \(([\d.]+)\)/), 'ratio', 0.55),
      info('peer: on-target items', num(peer, /on-target items \d+\/\d+ \(([\d.]+)\)/), 'ratio'),
      atMost('memories without provenance', num(line, /no provenance (\d+)/), '', 0),
      info('recalled characters per project, median', num(line, /median (\d+)/), '', 'precision first: no target on length'),
    ];
    // The whole set, ingested into one fresh daemon through its API (one client, as the hooks and the
    // watcher hand transcripts over), and again through the CLI, one process per file.
    const labels = JSON.parse(readFileSync(join(dir, 'labels.json'), 'utf8')) as Label[];
    const ingestAll = async (client: ApiClient) => {
      const t0 = performance.now();
      let daemonMs = 0;
      for (const l of labels)
        daemonMs += (await client.ingest({ path: join(dir, l.file), format: l.format as 'claude-code' | 'codex' })).summary?.durationMs ?? 0;
      return { wall: (performance.now() - t0) / 1000, daemon: daemonMs / 1000 };
    };
    const timed = await withDaemon({ transcripts: { watch: false } }, (d) => ingestAll(d.client));
    // The baseline's daemon, a fresh home each, then this build once more (the two alternate).
    const base = optionalBaseline(say);
    const baseRuns: number[] = [];
    const again: number[] = [];
    try {
      for (let round = 0; base && round < 2; round++) {
        const home = tempDir('ns-bench-real-base-');
        writeConfig(homePaths(home.dir));
        const d = await startDaemon(base.cli, home.dir);
        try {
          baseRuns.push((await ingestAll(d.client)).wall);
        } finally {
          await d.stop();
          home.remove();
        }
        if (round === 0) again.push((await withDaemon({ transcripts: { watch: false } }, (x) => ingestAll(x.client))).wall);
      }
    } finally {
      base?.remove();
    }
    const viaCli = await withDaemon({ transcripts: { watch: false } }, async (d) => {
      const t0 = performance.now();
      for (const l of labels) await cli(['ingest', join(dir, l.file), '--format', l.format, '--json'], d.cliEnv, 60_000);
      return (performance.now() - t0) / 1000;
    });
    say(
      `ingest of all ${labels.length} files: ${fmt(timed.wall)} s through the API (${fmt(timed.daemon)} s of it in the daemon's ingest), ${fmt(viaCli)} s through ${labels.length} CLI processes`,
    );
    figures.push(atMost('ingest of the whole dev half (API)', timed.wall, 's', 5));
    if (base && baseRuns.length) {
      say(`the same ingest: baseline ${base.ref} ${baseRuns.map(fmt).join(', ')} s; this build ${[timed.wall, ...again].map(fmt).join(', ')} s (alternated)`);
      const best = Math.min(timed.wall, ...again);
      figures.push(
        info(`baseline ${base.ref}: ingest of the whole dev half (API), faster run`, Math.min(...baseRuns), 's', `runs ${baseRuns.map(fmt).join(', ')}`),
      );
      figures.push(info('ingest of the dev half, this build ÷ baseline (faster run of each)', best / Math.min(...baseRuns), '×'));
    }
    figures.push(info('the same through one CLI process per file', viaCli, 's'));
    return figures;
  },
};

// `tsx bench/real-sessions.ts [--extractor NAME]`: this benchmark alone (dist/ must be built).
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const figures = await realSessionsBench.run({ quick: false }, (line) => process.stdout.write(`${line}\n`));
  for (const f of figures) process.stdout.write(`${f.ok === false ? 'MISS' : '    '} ${f.name}: ${fmt(f.value)} ${f.unit} ${f.target}\n`);
}
