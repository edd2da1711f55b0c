/**
 * Does the dream merge what means the same and keep apart what differs in one word? Facts about
 * generated services are each written twice, by independent phrasings (different words, the same
 * fact); near-miss pairs are one phrasing with one value changed (another service, another region,
 * never for always). The real dream runs on a real store, once offline and once with a model review
 * served by the loopback fake, whose verdicts come from reading each pair (bench/lib/pair-judge.ts),
 * not from a script. Targets: ≥ 90 % of paraphrase pairs merged, 0 near-miss pairs merged.
 */
import { performance } from 'node:perf_hooks';
import { pino } from 'pino';
import type { Memory } from '../src/api/memory.js';
import { ConfigSchema } from '../src/config.js';
import { createModelReview } from '../src/dream/model-review.js';
import { anthropicBackend } from '../src/llm/backends/anthropic.js';
import { DreamReports } from '../src/dream/reports.js';
import { dream } from '../src/dream/run.js';
import { createAnthropic } from '../src/llm/client.js';
import { MemoryService } from '../src/memory/service.js';
import { resolvePaths } from '../src/paths.js';
import { reply, startFakeAnthropic, toolUse, type RecordedRequest } from '../test/fakes/anthropic.js';
import { tempDir } from './lib/cleanup.js';
import { judge } from './lib/pair-judge.js';
import { buildPairs, type BenchPair } from './lib/paraphrases.js';
import { fmt } from './lib/stats.js';
import { atLeast, atMost, info, type Bench, type Figure } from './lib/types.js';

/** The fake review model: reads each pair from the request and judges it. */
function verdicts(req: RecordedRequest) {
  const body = (req.body.messages as { content: string }[]).map((m) => m.content).join('\n');
  const pairs = [...body.matchAll(/pair (p\d+):\n {2}earlier: (.+) \(\d{4}-\d\d-\d\d\)\n {2}later: (.+) \(\d{4}-\d\d-\d\d\)/g)].map((m) => ({
    key: m[1],
    verdict: judge(m[2] ?? '', m[3] ?? ''),
  }));
  return reply([toolUse('record_verdicts', { pairs })]);
}

function memory(id: number, content: string, at: string): Memory {
  return {
    id: `m${id.toString(16).padStart(12, '0')}`,
    content,
    type: 'fact',
    scope: 'project',
    project: '/bench/project',
    stable: true,
    pinned: false,
    importance: 0.6,
    createdAt: at,
    lastSeenAt: at,
    reinforcements: 0,
    sources: [],
    origin: 'import',
  };
}

interface Outcome {
  paraphrasesMerged: number;
  paraphrases: number;
  nearMissesMerged: number;
  nearMisses: number;
  superseded: number;
  ms: number;
  tokens: number;
}

async function run(pairs: BenchPair[], withModel: boolean, say: (l: string) => void): Promise<Outcome> {
  const home = tempDir('ns-bench-para-');
  const paths = resolvePaths({ NIGHTSHIFT_HOME: home.dir });
  const config = ConfigSchema.parse({ transcripts: { watch: false }, dream: { schedule: false } });
  const log = pino({ level: 'warn' });
  const service = await MemoryService.open(paths, config, log, async () => ({ proposals: [], extractor: 'heuristic' }));
  const day = 86_400_000;
  const pairOf = new Map<string, number>();
  pairs.forEach((p, i) => {
    // The second statement of a pair came a day later, as in two sessions.
    const a = memory(2 * i, p.a, new Date(Date.now() - 3 * day).toISOString());
    const b = memory(2 * i + 1, p.b, new Date(Date.now() - 2 * day).toISOString());
    service.store.add(a);
    service.store.add(b);
    pairOf.set(a.id, i);
    pairOf.set(b.id, i);
  });
  await service.store.save();
  const fake = withModel ? await startFakeAnthropic({ defaultStep: verdicts }) : undefined;
  const review = fake
    ? createModelReview({ backend: anthropicBackend(createAnthropic({ apiKey: 'sk-bench', baseURL: fake.url }), 'fake'), budget: 2_000_000, log })
    : undefined;
  const t0 = performance.now();
  let report;
  try {
    report = await dream(
      { memory: service, reports: new DreamReports(paths.dreamsDir), lockFile: paths.dreamLock, cap: 1_000_000, log, review },
      { dryRun: false, trigger: 'manual' },
    );
  } finally {
    await fake?.close();
  }
  const ms = performance.now() - t0;
  const merged = new Set<number>();
  let crossMerges = 0;
  for (const m of report.merges) {
    for (const id of m.merged) {
      const [x, y] = [pairOf.get(m.into), pairOf.get(id)];
      if (x !== undefined && x === y) merged.add(x);
      else {
        crossMerges++;
        if (process.env.BENCH_VERBOSE) say(`  cross-pair merge: "${service.store.get(m.into)?.content}" <- "${service.store.get(id)?.content}"`);
      }
    }
  }
  const isPara = (i: number) => pairs[i]?.kind === 'paraphrase';
  const out: Outcome = {
    paraphrasesMerged: [...merged].filter(isPara).length,
    paraphrases: pairs.filter((p) => p.kind === 'paraphrase').length,
    nearMissesMerged: [...merged].filter((i) => !isPara(i)).length + crossMerges,
    nearMisses: pairs.filter((p) => p.kind !== 'paraphrase').length,
    superseded: report.phases.consolidate.superseded,
    ms,
    tokens: report.tokens?.input ?? 0,
  };
  say(
    `${withModel ? 'with the model review (fake, judging each pair)' : 'offline (slots only)'}: paraphrase pairs merged ${out.paraphrasesMerged}/${out.paraphrases}, ` +
      `near-miss pairs merged ${out.nearMissesMerged}/${out.nearMisses}, superseded ${out.superseded}, dream ${fmt(ms)} ms${withModel ? `, ${out.tokens} input tokens` : ''}`,
  );
  if (process.env.BENCH_VERBOSE) {
    for (const x of report.supersessions)
      say(`  superseded: "${service.store.get(x.id)?.content}" by "${service.store.get(x.by)?.content}" (${x.reason.slice(0, 40)})`);
    pairs.forEach((p, i) => {
      const ok = p.kind === 'paraphrase' ? merged.has(i) : !merged.has(i);
      if (!ok) say(`  ${p.kind} ${merged.has(i) ? 'MERGED' : 'apart'}: "${p.a}" / "${p.b}"`);
    });
  }
  home.remove();
  return out;
}

export const dreamParaphraseBench: Bench = {
  name: 'dream-paraphrase',
  title: 'independently written paraphrases merged, near-miss pairs kept apart',
  budgetSeconds: 300,
  async run(o, say) {
    const pairs = buildPairs(o.quick ? 8 : 40);
    say(`${pairs.filter((p) => p.kind === 'paraphrase').length} paraphrase pairs, ${pairs.filter((p) => p.kind !== 'paraphrase').length} near-miss pairs`);
    const offline = await run(pairs, false, say);
    const model = await run(pairs, true, say);
    const figures: Figure[] = [
      info(
        'offline: paraphrase pairs merged',
        offline.paraphrasesMerged / offline.paraphrases,
        'ratio',
        `${offline.paraphrasesMerged} of ${offline.paraphrases}`,
      ),
      atMost('offline: near-miss pairs merged', offline.nearMissesMerged, '', 0),
      atLeast('with model review: paraphrase pairs merged', model.paraphrasesMerged / model.paraphrases, 'ratio', 0.9),
      atMost('with model review: near-miss pairs merged', model.nearMissesMerged, '', 0),
    ];
    return figures;
  },
};
