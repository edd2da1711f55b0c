/**
 * Fits the memory ranker (src/memory/rank/) on labelled real sessions, with grouped K-fold
 * cross-validation: the folds are the corpus's groups (one person's sessions each), so one
 * person's sessions are never in both the training and the test fold. Prints the out-of-fold
 * figures per fold and overall (the recall each project would get, scored as the real-session
 * scorer scores it), picks the penalty, the junk weight and the floor by those figures, fits on
 * everything and writes src/memory/rank/weights.json with the report.
 *
 *   npm run fit:ranker [-- --labels PATH] [--rejections LEDGER] [--folds N] [--dry-run]
 *
 * PATH defaults to ../shared/benchmarks/real-sessions/labels.json (the development half); LEDGER to
 * the daemon's injections.jsonl: the memories people rejected there train as negatives (fit/rejections.ts).
 */
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { FEATURES } from '../src/memory/rank/features.js';
import { fitLogistic, probability, type LogisticModel } from '../src/memory/rank/logistic.js';
import type { Weights } from '../src/memory/rank/weights.js';
import { corpusRows, loadLabels, type Row } from './fit/corpus.js';
import { defaultLedger, rejectionRows } from './fit/rejections.js';
import { addTally, emptyTally, median, simulate, type Tally } from './fit/simulate.js';

const root = resolve(import.meta.dirname, '..');
const { values } = parseArgs({
  options: {
    labels: { type: 'string', default: resolve(root, '../shared/benchmarks/real-sessions/labels.json') },
    rejections: { type: 'string', default: defaultLedger() },
    folds: { type: 'string', default: '3' },
    'dry-run': { type: 'boolean', default: false },
  },
});
const started = Date.now();
const labelsPath = resolve(values.labels);
const files = loadLabels(labelsPath);
const K = Number(values.folds);
const groups = [...new Set(files.map((f) => f.group))].sort();
/** The scorer's folds: groups sorted by name, dealt round-robin. */
const foldOf = (r: Row): number => groups.indexOf(r.file.group) % K;

const rows = await corpusRows(labelsPath, files);
/** People's rejections: trained on in every fit, never scored (the figures stay the labelled corpus's). */
const negatives = await rejectionRows(resolve(values.rejections));
const loaded = Date.now() - started;

const LAMBDAS = [3, 10, 30];
const JUNK_WEIGHTS = [0, 1, 2, 3, 5];
const FLOORS = Array.from({ length: 31 }, (_, i) => -0.1 + i * 0.02);
/** A junk item recalled costs as much as this many wanted items missed. */
const JUNK_COST = 2;

interface Models {
  wanted: LogisticModel;
  junk: LogisticModel;
}

function fit(corpus: readonly Row[], lambda: number): Models {
  const train = [...corpus, ...negatives];
  const labelled = train.filter((r) => r.wanted !== undefined);
  return {
    wanted: fitLogistic(
      labelled.map((r) => r.x),
      labelled.map((r) => r.wanted ?? 0),
      { lambda, sampleWeights: labelled.map((r) => r.wantedWeight) },
    ),
    junk: fitLogistic(
      train.map((r) => r.x),
      train.map((r) => r.junk),
      { lambda, sampleWeights: train.map((r) => r.junkWeight) },
    ),
  };
}

interface Choice {
  lambda: number;
  junkWeight: number;
  floor: number;
  folds: Tally[];
  all: Tally;
  objective: number;
}

/** Out-of-fold scores: each row scored by models that never saw its group, for each penalty. */
function outOfFold(foldOf: (r: Row) => number, folds: number, lambda: number): Map<Row, { wanted: number; junk: number }> {
  const out = new Map<Row, { wanted: number; junk: number }>();
  for (let k = 0; k < folds; k++) {
    const m = fit(
      rows.filter((r) => foldOf(r) !== k),
      lambda,
    );
    for (const r of rows) if (foldOf(r) === k) out.set(r, { wanted: probability(m.wanted, r.x), junk: probability(m.junk, r.x) });
  }
  return out;
}

// The operating point is chosen on leave-one-group-out scores (every group predicted by models fitted
// on all the others: steadier than three folds); the scorer's three folds are reported for it.
const byGroup = (r: Row): number => groups.indexOf(r.file.group);
let best: Choice | undefined;
for (const lambda of LAMBDAS) {
  const oof = outOfFold(byGroup, groups.length, lambda);
  for (const jw of JUNK_WEIGHTS)
    for (const floor of FLOORS) {
      const all = simulate(rows, (r) => (oof.get(r)?.wanted ?? 0) - jw * (oof.get(r)?.junk ?? 0), floor);
      const objective = all.wanted - JUNK_COST * all.junk;
      if (process.env.FIT_TRACE)
        console.log(
          `trace lambda ${lambda} jw ${jw} floor ${floor.toFixed(2)}: wanted ${all.wanted} junk ${all.junk} median ${median(all.chars)} objective ${objective}`,
        );
      if (best === undefined || objective > best.objective) best = { lambda, junkWeight: jw, floor, folds: [], all, objective };
    }
}
if (best === undefined) throw new Error('no labelled rows');
const chosen = best;
const threeFold = outOfFold(foldOf, K, chosen.lambda);
const score3 = (r: Row): number => (threeFold.get(r)?.wanted ?? 0) - chosen.junkWeight * (threeFold.get(r)?.junk ?? 0);
chosen.folds = Array.from({ length: K }, (_, k) =>
  simulate(
    rows.filter((r) => foldOf(r) === k),
    score3,
    chosen.floor,
  ),
);
const threeAll = chosen.folds.reduce(addTally, emptyTally());

const ratio = (a: number, b: number): number => (b === 0 ? 0 : Math.round((a / b) * 100) / 100);
const line = (t: Tally) =>
  `wanted ${t.wanted}/${t.wantedTotal} (${ratio(t.wanted, t.wantedTotal).toFixed(2)}); junk ${t.junk}; on-target ${ratio(t.onTarget, t.items).toFixed(2)}; median characters ${median(t.chars)}`;
console.log(
  `corpus: ${files.length} files, ${groups.length} groups, ${rows.length} candidates (${rows.filter((r) => r.wanted === 1).length} wanted, ${rows.filter((r) => r.junk === 1).length} junk); ${negatives.length} rejected memories as negatives (${values.rejections}); read in ${loaded} ms`,
);
console.log(`chosen: lambda ${chosen.lambda}, junk weight ${chosen.junkWeight}, floor ${chosen.floor.toFixed(2)}`);
console.log(`out of fold, leave one group out: ${line(chosen.all)}`);
chosen.folds.forEach((t, k) => console.log(`out of fold ${k + 1}/${K}: ${line(t)}`));
console.log(`out of fold ${K} folds, all: ${line(threeAll)}`);

const tallyOf = (t: Tally) => ({
  wanted: t.wanted,
  wantedTotal: t.wantedTotal,
  junk: t.junk,
  onTarget: ratio(t.onTarget, t.items),
  medianChars: median(t.chars),
});
const final = fit(rows, chosen.lambda);
const weights: Weights = {
  version: 1,
  features: [...FEATURES],
  wanted: final.wanted,
  junk: final.junk,
  junkWeight: chosen.junkWeight,
  floor: chosen.floor,
  report: {
    corpus: { files: files.length, groups: groups.length, candidates: rows.length },
    folds: K,
    lambda: chosen.lambda,
    leaveOneGroupOut: tallyOf(chosen.all),
    outOfFold: [...chosen.folds, threeAll].map(tallyOf),
  },
};
const top = (m: LogisticModel) =>
  FEATURES.map((f, j) => [f, m.weights[j] ?? 0] as const)
    .sort((a, b) => Math.abs(b[1]) - Math.abs(a[1]))
    .slice(0, 8)
    .map(([f, w]) => `${f} ${w >= 0 ? '+' : ''}${w.toFixed(2)}`)
    .join(', ');
console.log(`wanted, strongest: ${top(final.wanted)}`);
console.log(`junk, strongest: ${top(final.junk)}`);
if (!values['dry-run']) {
  writeFileSync(
    resolve(root, 'src/memory/rank/weights.json'),
    `${JSON.stringify(weights, (_, v: unknown) => (typeof v === 'number' ? Math.round(v * 1e6) / 1e6 : v), 2)}\n`,
  );
  console.log('wrote src/memory/rank/weights.json');
}
console.log(`fit took ${((Date.now() - started) / 1000).toFixed(1)} s`);
