import { performance } from 'node:perf_hooks';
import type { ApiClient } from '../src/api/client.js';
import type { ImportLine } from '../src/api/memory.js';
import { tempDir } from './lib/cleanup.js';
import { withDaemon } from './lib/daemon.js';
import { memorySentence, nearDuplicate, pick, recallQuery, rng, type Rand } from './lib/memgen.js';
import { statusKiB } from './lib/proc.js';
import { cli, timeNode } from './lib/spawn.js';
import { fmt, median, percentile } from './lib/stats.js';
import { atMost, info, type Bench, type Figure } from './lib/types.js';

const DAY = 86_400_000;
/** What `nightshift memories import` sends per request (the daemon takes at most 1 MiB). */
const BATCH_BYTES = 256 * 1024;

/**
 * `count` import lines: 30 % user scope, 70 % the project; a fifth near-duplicates of earlier lines;
 * 35 % not stable, seen 0–300 days ago (those past ~80 days have decayed below the recall floor).
 */
export function memoryLines(r: Rand, count: number, project: string, now: number): ImportLine[] {
  const lines: ImportLine[] = [];
  const seen = new Set<string>();
  while (lines.length < count) {
    let content: string;
    let base: ReturnType<typeof memorySentence>;
    if (lines.length > 20 && r() < 0.2) {
      const earlier = pick(r, lines);
      content = nearDuplicate(r, earlier.content);
      base = { text: content, type: earlier.type ?? 'note', scope: earlier.scope === 'user' ? 'user' : 'project' };
    } else {
      let tries = 0;
      do base = memorySentence(r);
      while (seen.has(base.text) && ++tries < 20);
      content = base.text;
    }
    if (seen.has(content)) continue;
    seen.add(content);
    const user = base.scope === 'user' ? r() < 0.8 : r() < 0.1;
    const stable = r() >= 0.35;
    const createdAt = new Date(now - Math.floor(r() * 400 * DAY)).toISOString();
    const lastSeenAt = stable ? createdAt : new Date(now - Math.floor(r() * 300 * DAY)).toISOString();
    lines.push({
      content,
      ...(user ? { scope: 'user' as const } : { scope: 'project' as const, project }),
      type: base.type,
      stable,
      importance: Math.round((0.3 + r() * 0.65) * 100) / 100,
      createdAt: createdAt < lastSeenAt ? createdAt : lastSeenAt,
      lastSeenAt,
    });
  }
  return lines;
}

/** Imports in request bodies of at most 256 KiB, as the CLI does. */
async function importAll(client: ApiClient, lines: ImportLine[]): Promise<{ added: number; duplicates: number; ms: number; requests: number }> {
  const t0 = performance.now();
  const total = { added: 0, duplicates: 0, requests: 0 };
  let batch: ImportLine[] = [];
  let bytes = 0;
  const flush = async () => {
    if (batch.length === 0) return;
    const r = await client.importMemories(batch);
    total.added += r.added;
    total.duplicates += r.duplicates;
    total.requests++;
    batch = [];
    bytes = 0;
  };
  for (const line of lines) {
    const size = Buffer.byteLength(JSON.stringify(line)) + 1;
    if (bytes + size > BATCH_BYTES - 64 || batch.length >= 5000) await flush();
    batch.push(line);
    bytes += size;
  }
  await flush();
  return { ...total, ms: performance.now() - t0 };
}

interface Latency {
  plain: number[];
  query: number[];
  items: number[];
}

/** Round trips of `client.recall` with and without a query, interleaved, after a warm-up. */
async function recallLatency(client: ApiClient, project: string, samples: number, r: Rand): Promise<Latency> {
  const out: Latency = { plain: [], query: [], items: [] };
  for (let i = 0; i < 20; i++) {
    await client.recall({ project });
    await client.recall({ project, query: recallQuery(r) });
  }
  for (let i = 0; i < samples; i++) {
    const order = i % 2 === 0;
    for (const withQuery of order ? [false, true] : [true, false]) {
      const req = withQuery ? { project, query: recallQuery(r) } : { project };
      const t0 = performance.now();
      const res = await client.recall(req);
      const ms = performance.now() - t0;
      (withQuery ? out.query : out.plain).push(ms);
      out.items.push(res.items.length);
    }
  }
  return out;
}

/** `nightshift recall --project P` end to end, alternated with `node -e 0` (the floor of any node CLI). */
async function cliLatency(env: Record<string, string>, project: string, runs: number): Promise<{ cli: number[]; node: number[]; bytes: number }> {
  const out = { cli: [] as number[], node: [] as number[], bytes: 0 };
  for (let i = 0; i < 3; i++) {
    await cli(['recall', '--project', project], env);
    await timeNode(['-e', '0'], env);
  }
  for (let i = 0; i < runs; i++) {
    const c = await cli(['recall', '--project', project], env);
    out.cli.push(c.ms);
    out.bytes = c.stdout.length;
    out.node.push((await timeNode(['-e', '0'], env)).ms);
  }
  return out;
}

const p = (xs: number[], q: number) => percentile(xs, q);

export const recallBench: Bench = {
  name: 'recall',
  title: 'Recall latency with 10,000 and 100,000 memories (in-daemon round trip; `nightshift recall` end to end)',
  budgetSeconds: 300,
  async run(o, say) {
    const sizes = o.quick ? [1_000, 5_000] : [10_000, 100_000];
    const samples = o.quick ? 50 : 250;
    const cliRuns = o.quick ? 8 : 31;
    const work = tempDir('ns-bench-recall-');
    const project = work.dir; // a real directory without .git: the project key is the directory itself
    try {
      return await withDaemon({ transcripts: { watch: false }, memory: { extractor: 'heuristic' } }, async ({ client, pid, cliEnv }) => {
        const figures: Figure[] = [];
        const r = rng(20261122);
        const now = Date.now();
        // One stream of lines: the 100k store is the 10k store plus 90k more.
        const all = memoryLines(r, sizes[sizes.length - 1] as number, project, now);
        let imported = 0;
        for (const size of sizes) {
          const lines = all.slice(imported, size);
          const imp = await importAll(client, lines);
          imported = size;
          const st = await client.status();
          const rss = statusKiB(pid, 'VmRSS') / 1024;
          say(
            `${size} lines imported (${lines.length} now, ${imp.requests} requests of ≤ 256 KiB) in ${fmt(imp.ms / 1000)} s = ${fmt(lines.length / (imp.ms / 1000))} lines/s: ` +
              `${imp.added} added, ${imp.duplicates} duplicates; store ${st.memory.memories} memories; daemon VmRSS ${fmt(rss)} MiB`,
          );
          const lat = await recallLatency(client, project, samples, r);
          say(
            `${size}: recall without query p50 ${fmt(p(lat.plain, 50))} p90 ${fmt(p(lat.plain, 90))} p99 ${fmt(p(lat.plain, 99))} max ${fmt(Math.max(...lat.plain))} ms; ` +
              `with query p50 ${fmt(p(lat.query, 50))} p90 ${fmt(p(lat.query, 90))} p99 ${fmt(p(lat.query, 99))} max ${fmt(Math.max(...lat.query))} ms (${samples} each; items per answer median ${median(lat.items)})`,
          );
          const label = size >= 1000 ? `${size / 1000}k` : String(size);
          const big = size === sizes[sizes.length - 1];
          if (!big) {
            figures.push(
              atMost(`${label}: recall, no query, p50`, p(lat.plain, 50), 'ms', 10),
              atMost(`${label}: recall, no query, p99`, p(lat.plain, 99), 'ms', 50),
              atMost(`${label}: recall --query, p50`, p(lat.query, 50), 'ms', 10),
              atMost(`${label}: recall --query, p99`, p(lat.query, 99), 'ms', 50),
            );
          } else {
            figures.push(
              atMost(`${label}: recall, no query, p50`, p(lat.plain, 50), 'ms', 50),
              info(`${label}: recall, no query, p99`, p(lat.plain, 99), 'ms'),
              atMost(`${label}: recall --query, p50`, p(lat.query, 50), 'ms', 50),
              info(`${label}: recall --query, p99`, p(lat.query, 99), 'ms'),
            );
          }
          figures.push(info(`${label}: import rate (${imp.added} added of ${lines.length})`, lines.length / (imp.ms / 1000), 'lines/s'));
          const c = await cliLatency(cliEnv, project, cliRuns);
          say(
            `${size}: \`nightshift recall --project P\` (${c.bytes} bytes out) p50 ${fmt(p(c.cli, 50))} p90 ${fmt(p(c.cli, 90))} ms; ` +
              `\`node -e 0\` p50 ${fmt(p(c.node, 50))} p90 ${fmt(p(c.node, 90))} ms (${cliRuns} runs each, alternated)`,
          );
          figures.push(
            atMost(`${label}: \`nightshift recall\` end to end, p50`, p(c.cli, 50), 'ms', 200),
            info(`${label}: floor \`node -e 0\`, p50`, p(c.node, 50), 'ms', 'baseline'),
            info(`${label}: CLI over the floor (p50s)`, p(c.cli, 50) - p(c.node, 50), 'ms'),
          );
        }
        return figures;
      });
    } finally {
      work.remove();
    }
  },
};
