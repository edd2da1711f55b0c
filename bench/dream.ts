/**
 * Offline dream of 10,000 and 100,000 memories, a fifth of them near-duplicates of another, with a
 * few planted value changes. Runs the real dream (store files on disk, the daemon's code path) in
 * this process and checks every merge against the ground truth: duplicates merged, and distinct
 * memories wrongly merged (target 0).
 */
import { performance } from 'node:perf_hooks';
import { pino } from 'pino';
import type { Memory } from '../src/api/memory.js';
import { ConfigSchema } from '../src/config.js';
import { DreamReports } from '../src/dream/reports.js';
import { dream } from '../src/dream/run.js';
import { MemoryService } from '../src/memory/service.js';
import { resolvePaths } from '../src/paths.js';
import { createAnthropic } from '../src/llm/client.js';
import { createModelReview } from '../src/dream/model-review.js';
import { anthropicBackend } from '../src/llm/backends/anthropic.js';
import { reply, startFakeAnthropic, toolUse, type RecordedRequest } from '../test/fakes/anthropic.js';
import { tempDir } from './lib/cleanup.js';
import { judge } from './lib/pair-judge.js';
import { fmt } from './lib/stats.js';
import { atMost, info, type Bench, type Figure } from './lib/types.js';

const SERVICES = ['billing', 'auth', 'search', 'ledger', 'gateway', 'mailer', 'reports', 'uploads', 'scheduler', 'metrics', 'catalog', 'checkout'];
const THINGS = ['cache', 'queue', 'worker', 'cron job', 'database', 'API', 'frontend', 'CLI', 'webhook', 'importer', 'exporter', 'indexer'];
const VERBS = ['listens on port', 'keeps at most', 'retries', 'times out after', 'runs', 'shards into', 'logs at level', 'batches'];
const TAILS = ['', ' in production', ' on staging', ' by default', ' for every tenant', ' since the rewrite'];

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/**
 * A distinct fact: its own subject (a component named like `billing417`), so two distinct facts
 * never share subject and verb with different values — that would be a contradiction, not two facts.
 */
function fact(i: number, r: () => number): string {
  const pick = <T>(xs: T[]) => xs[Math.floor(r() * xs.length)] as T;
  return `The ${pick(SERVICES)}${i} ${pick(THINGS)} ${pick(VERBS)} ${100 + Math.floor(r() * 9000)}${pick(TAILS)}.`;
}

/** Rewordings that keep every content word and value: case, punctuation, filler words, order of a clause. */
function reword(text: string, r: () => number): string {
  const variants = [
    (t: string) => t.toLowerCase().replace(/\.$/, ''),
    (t: string) => `Note: ${t}`,
    (t: string) => t.replace(/^The /, 'Our ').replace(/\.$/, '!'),
    (t: string) => `FYI, ${t.charAt(0).toLowerCase()}${t.slice(1)}`,
    (t: string) => t.replace(/\.$/, ' (as agreed).'),
  ];
  return (variants[Math.floor(r() * variants.length)] as (t: string) => string)(text);
}

/** The fake model: judges each pair from its two statements (lib/pair-judge.ts); usage = its chars/4 count. */
function verdicts(req: RecordedRequest) {
  const body = (req.body.messages as { content: string }[]).map((m) => m.content).join('\n');
  const pairs = [...body.matchAll(/pair (p\d+):\n {2}earlier: (.+) \(\d{4}-\d\d-\d\d\)\n {2}later: (.+) \(\d{4}-\d\d-\d\d\)/g)].map((m) => ({
    key: m[1],
    verdict: judge(m[2] ?? '', m[3] ?? ''),
  }));
  return reply([toolUse('record_verdicts', { pairs })]);
}

async function run(
  n: number,
  say: (l: string) => void,
  budget?: number,
): Promise<{ ms: number; merged: number; expected: number; wrong: number; superseded: number; planted: number; tokens: number }> {
  const home = tempDir('ns-bench-dream-');
  const paths = resolvePaths({ NIGHTSHIFT_HOME: home.dir });
  const config = ConfigSchema.parse({ transcripts: { watch: false }, dream: { schedule: false } });
  const log = pino({ level: 'warn' });
  const memory = await MemoryService.open(paths, config, log, async () => ({ proposals: [], extractor: 'heuristic' }));
  const r = rng(n);
  const group = new Map<string, number>();
  const at = new Date(Date.now() - 86_400_000).toISOString();
  const distinct = Math.round(n * 0.8);
  const texts: string[] = [];
  let planted = 0;
  for (let i = 0; i < n; i++) {
    let content: string;
    let g: number;
    if (i < distinct) {
      content = fact(i, r);
      g = i;
      texts.push(content);
    } else if (i % 100 === 0) {
      // A changed value: same subject, new number (a contradiction, not a duplicate).
      g = Math.floor(r() * distinct);
      content = (texts[g] as string).replace(/ (\d+)(\D*)$/, (_m, v: string, rest: string) => ` ${Number(v) + 1}${rest}`);
      g = -1 - i;
      planted++;
    } else {
      g = Math.floor(r() * distinct);
      content = reword(texts[g] as string, r);
    }
    const m: Memory = {
      id: `m${i.toString(16).padStart(12, '0')}`,
      content,
      type: 'fact',
      scope: 'project',
      project: '/bench/project',
      stable: true,
      pinned: false,
      importance: 0.6,
      createdAt: at,
      lastSeenAt: i >= distinct ? new Date().toISOString() : at,
      reinforcements: 0,
      sources: [],
      origin: 'import',
    };
    memory.store.add(m);
    group.set(m.id, g);
  }
  await memory.store.save();
  const expected = n - distinct - planted;
  const t0 = performance.now();
  const fake = budget === undefined ? undefined : await startFakeAnthropic({ defaultStep: verdicts });
  const review =
    fake && budget !== undefined
      ? createModelReview({ backend: anthropicBackend(createAnthropic({ apiKey: 'sk-bench', baseURL: fake.url }), 'fake'), budget, log })
      : undefined;
  let report;
  try {
    report = await dream(
      { memory, reports: new DreamReports(paths.dreamsDir), lockFile: paths.dreamLock, cap: 1_000_000, log, review },
      { dryRun: false, trigger: 'manual' },
    );
  } finally {
    await fake?.close();
  }
  const ms = performance.now() - t0;
  if (report.tokens)
    say(
      `model review: ${report.phases.consolidate.modelBatches} batches, ${report.tokens.input} input + ${report.tokens.output} output tokens (budget ${report.tokens.budget}), as counted by the fake (JSON length / 4)`,
    );
  let merged = 0;
  let wrong = 0;
  for (const m of report.merges) {
    const g = group.get(m.into);
    for (const id of m.merged) {
      if (group.get(id) === g) merged++;
      else wrong++;
    }
  }
  say(
    `${n} memories: dream ${fmt(ms)} ms (orient ${report.phases.orient.ms}, gather ${report.phases.gather.ms}, consolidate ${report.phases.consolidate.ms}, prune ${report.phases.prune.ms} ms); merged ${merged}/${expected}, wrongly merged ${wrong}, superseded ${report.phases.consolidate.superseded} (planted changes ${planted})`,
  );
  home.remove();
  return { ms, merged, expected, wrong, superseded: report.phases.consolidate.superseded, planted, tokens: report.tokens?.input ?? 0 };
}

export const dreamBench: Bench = {
  name: 'dream',
  title: 'offline dream of 10,000 and 100,000 memories (a fifth near-duplicates)',
  budgetSeconds: 600,
  async run(o, say) {
    const figures: Figure[] = [];
    const small = await run(o.quick ? 2000 : 10_000, say);
    figures.push(atMost(`dream of ${o.quick ? '2,000' : '10,000'} memories`, small.ms / 1000, 's', 5));
    figures.push(info('near-duplicates merged', small.merged / Math.max(1, small.expected), 'ratio', `${small.merged} of ${small.expected}`));
    figures.push(atMost('distinct memories wrongly merged', small.wrong, '', 0));
    figures.push(info('planted value changes superseded', small.superseded, '', `${small.planted} planted`));
    // With the fake model server: a budget smaller than the work, so the budget is what stops it.
    const budget = 20_000;
    const withModel = await run(2000, say, budget);
    figures.push(atMost('with the fake model: input tokens of one dream (2,000 memories)', withModel.tokens, 'tokens', budget));
    if (!o.quick) {
      const big = await run(100_000, say);
      figures.push(atMost('dream of 100,000 memories', big.ms / 1000, 's', 60));
      figures.push(info('near-duplicates merged (100k)', big.merged / Math.max(1, big.expected), 'ratio', `${big.merged} of ${big.expected}`));
      figures.push(atMost('distinct memories wrongly merged (100k)', big.wrong, '', 0));
    }
    return figures;
  },
};
