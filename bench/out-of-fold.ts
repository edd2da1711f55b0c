/**
 * The recall block on sessions the ranker never saw, through the real daemon: for each of the
 * scorer's three folds, the ranker is fitted without that fold's people (`npm run fit:ranker --
 * --hold-out K/3 --out FILE`, in every corpus), and the shared scorer (score.mjs, read in place)
 * scores that fold on a daemon given those weights (NIGHTSHIFT_RANKER_WEIGHTS). Summed over the
 * folds, each corpus's figures are out of fold; the trivial peer (baseline.mjs, a dump of the
 * person's own sentences) is measured beside it in the same run. The failure-class suite is read per
 * class with its perclass.py. Targets: the real dev half wanted ≥ 0.70, on-target ≥ 0.55, junk ≤ 8,
 * each fold within 0.10 of the whole; the class suite wanted ≥ 0.80, on-target ≥ 0.60, junk ≤ 5;
 * the fit ≤ 2 minutes.
 *
 * `tsx bench/out-of-fold.ts` (dist/ must be built): this benchmark alone.
 */
import { execFile } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { tempDir } from './lib/cleanup.js';
import { fmt } from './lib/stats.js';
import { atLeast, atMost, info, type Bench, type Figure } from './lib/types.js';

const run = promisify(execFile);
const ROOT = resolve(import.meta.dirname, '..');
const FOLDS = 3;

/** shared/benchmarks in a directory above the checkout. */
function benchmarksDir(): string | undefined {
  for (let dir = ROOT; dir !== dirname(dir); dir = dirname(dir)) {
    const candidate = join(dir, 'shared', 'benchmarks');
    if (existsSync(join(candidate, 'real-sessions', 'labels.json')) && existsSync(join(candidate, 'classes', 'labels.json'))) return candidate;
  }
  return undefined;
}

interface Tally {
  wanted: number;
  total: number;
  junk: number;
  onTarget: number;
  items: number;
}

const num = (line: string, re: RegExp): number => Number(re.exec(line)?.[1] ?? 0);

/** The scorer's last line as counts. */
function tallyOf(line: string): Tally {
  const w = /wanted recalled (\d+)\/(\d+)/.exec(line);
  const t = /on-target (?:memory )?items (\d+)\/(\d+)/.exec(line);
  return {
    wanted: Number(w?.[1] ?? 0),
    total: Number(w?.[2] ?? 0),
    junk: num(line, /junk recalled (\d+)/),
    onTarget: Number(t?.[1] ?? 0),
    items: Number(t?.[2] ?? 0),
  };
}

const add = (a: Tally, b: Tally): Tally => ({
  wanted: a.wanted + b.wanted,
  total: a.total + b.total,
  junk: a.junk + b.junk,
  onTarget: a.onTarget + b.onTarget,
  items: a.items + b.items,
});
const ratio = (a: number, b: number): number => (b === 0 ? 0 : a / b);
const text = (t: Tally): string =>
  `wanted ${t.wanted}/${t.total} (${fmt(ratio(t.wanted, t.total))}); junk ${t.junk}; on-target ${t.onTarget}/${t.items} (${fmt(ratio(t.onTarget, t.items))})`;

export const outOfFoldBench: Bench = {
  name: 'out-of-fold',
  title: 'the recall block on people the ranker never saw (each fold scored by a fit without it), beside the trivial peer',
  budgetSeconds: 1200,
  async run(_o, say) {
    const shared = benchmarksDir();
    if (shared === undefined) {
      say('shared/benchmarks (real-sessions and classes) was not found above the checkout; skipped');
      return [];
    }
    const corpora = [
      { name: 'real-sessions', labels: join(shared, 'real-sessions', 'labels.json') },
      { name: 'classes', labels: join(shared, 'classes', 'labels.json') },
    ];
    const scorer = join(shared, 'real-sessions', 'score.mjs');
    const tmp = tempDir('ns-bench-oof-');
    const totals = new Map(
      corpora.map((c) => [c.name, { all: { wanted: 0, total: 0, junk: 0, onTarget: 0, items: 0 } as Tally, folds: [] as Tally[], verbose: [] as string[] }]),
    );
    const fitSeconds: number[] = [];
    try {
      for (let k = 1; k <= FOLDS; k++) {
        const weights = join(tmp.dir, `weights-${k}.json`);
        const t0 = performance.now();
        await run('npx', ['tsx', join(ROOT, 'scripts/fit-ranker.ts'), '--hold-out', `${k}/${FOLDS}`, '--out', weights], { cwd: ROOT, maxBuffer: 64 << 20 });
        fitSeconds.push((performance.now() - t0) / 1000);
        for (const c of corpora) {
          const scored = await run('node', [scorer, ROOT, c.labels, '--verbose', '--fold', `${k}/${FOLDS}`], {
            maxBuffer: 64 << 20,
            env: { ...process.env, NIGHTSHIFT_RANKER_WEIGHTS: weights },
          });
          const out = scored.stdout.trim();
          const t = tallyOf(out.split('\n').pop() ?? '');
          const mine = totals.get(c.name);
          if (mine === undefined) continue;
          mine.all = add(mine.all, t);
          mine.folds.push(t);
          mine.verbose.push(out);
          say(`${c.name} fold ${k}/${FOLDS} (fitted without it): ${text(t)}`);
        }
      }
      const figures: Figure[] = [atMost('the fit (slowest of the folds)', Math.max(...fitSeconds), 's', 120)];
      for (const c of corpora) {
        const mine = totals.get(c.name);
        if (mine === undefined) continue;
        const peer = tallyOf((await run('node', [join(shared, 'real-sessions', 'baseline.mjs'), c.labels], { maxBuffer: 64 << 20 })).stdout.trim());
        say(`${c.name}, out of fold, all folds: ${text(mine.all)}`);
        say(`${c.name}, peer (the person's sentences, 8,000 characters): ${text(peer)}`);
        const wanted = ratio(mine.all.wanted, mine.all.total);
        const onTarget = ratio(mine.all.onTarget, mine.all.items);
        const real = c.name === 'real-sessions';
        figures.push(
          atLeast(`${c.name}: wanted recalled, out of fold`, wanted, 'ratio', real ? 0.7 : 0.8),
          info(`${c.name}: peer, wanted recalled`, ratio(peer.wanted, peer.total), 'ratio', 'same corpus, same scoring'),
          atLeast(`${c.name}: on-target memory items, out of fold`, onTarget, 'ratio', real ? 0.55 : 0.6),
          info(`${c.name}: peer, on-target items`, ratio(peer.onTarget, peer.items), 'ratio'),
          atMost(`${c.name}: junk recalled, out of fold`, mine.all.junk, '', real ? 8 : 5),
          info(`${c.name}: peer, junk recalled`, peer.junk, ''),
        );
        if (real)
          figures.push(
            atMost(
              'real-sessions: fold furthest from the whole (|fold − whole| of wanted recalled)',
              Math.max(...mine.folds.map((f) => Math.abs(ratio(f.wanted, f.total) - wanted))),
              '',
              0.1,
            ),
          );
        else {
          // Per class, from the class suite's own reader of the scorer's verbose output.
          const file = join(tmp.dir, 'classes-verbose.txt');
          writeFileSync(file, mine.verbose.join('\n'));
          const table = (await run('python3', [join(shared, 'classes', 'perclass.py'), file])).stdout.trim();
          for (const line of table.split('\n')) say(`  ${line}`);
          const below = table
            .split('\n')
            .map((l) => /^\|\s*(\w)\s*\|[^|]*\|\s*(\d+)\/(\d+)\s*\|/.exec(l))
            .filter((m): m is RegExpExecArray => m !== null && Number(m[3]) > 0 && Number(m[2]) / Number(m[3]) < 0.6)
            .map((m) => m[1]);
          figures.push(atMost('classes: classes under 0.6 of their wanted items, out of fold', below.length, '', 0));
          if (below.length > 0) say(`classes under 0.6: ${below.join(', ')}`);
        }
      }
      return figures;
    } finally {
      tmp.remove();
    }
  },
};

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const figures = await outOfFoldBench.run({ quick: false }, (l) => console.log(l));
  for (const f of figures)
    console.log(`${f.ok === null ? ' ' : f.ok ? '✓' : '✗'} ${f.name}: ${fmt(f.value)}${f.unit && f.unit !== 'ratio' ? ` ${f.unit}` : ''} ${f.target}`);
}
