import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { ApiClient } from '../src/client/api-client.js';
import type { ImportLine, Memory } from '../src/api/memory.js';
import { fileFor } from '../src/memory/store/memory-file.js';
import type { Namespace } from '../src/memory/store/model.js';
import type { Paths } from '../src/paths.js';
import { tempDir } from './lib/cleanup.js';
import { memoryCounts, withDaemon } from './lib/daemon.js';
import { memorySentence, nearDuplicate, pick, recallQuery, rng, type Rand } from './lib/memgen.js';
import { statusKiB } from './lib/proc.js';
import { homePaths, optionalBaseline, startDaemon, waitStatus, writeConfig, type Running } from './lib/restart-home.js';
import { CLI, cli, timeNode } from './lib/spawn.js';
import { fmt, median, percentile } from './lib/stats.js';
import { atMost, info, type Bench, type Figure } from './lib/types.js';

const DAY = 86_400_000;
/** What `nightshift memories import` sends per request (the daemon takes at most 1 MiB). */
const BATCH_BYTES = 256 * 1024;

/**
 * `count` import lines from the templates of lib/memgen.ts (~85 characters each): ~19 % user scope,
 * the rest the project; a fifth near-duplicates of earlier lines; 35 % not stable, last seen 0–300
 * days ago (about a quarter of all lines have decayed below the recall floor of 0.1).
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

/** A latency loop stops after this long even if it has fewer samples (a slow build must not overrun the bench's budget). */
const LOOP_MS = 45_000;

/** Round trips of `client.recall` with and without a query, interleaved, after a warm-up; at most LOOP_MS of them. */
async function recallLatency(client: ApiClient, project: string, samples: number, r: Rand): Promise<Latency> {
  const out: Latency = { plain: [], query: [], items: [] };
  for (let i = 0; i < 20; i++) {
    await client.recall({ project });
    await client.recall({ project, query: recallQuery(r) });
  }
  const until = performance.now() + LOOP_MS;
  for (let i = 0; i < samples && performance.now() < until; i++) {
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

/** A store of `lines` written straight into the home's memory files, as the daemon would have saved them. */
export function seedStore(paths: Paths, lines: ImportLine[], project: string): void {
  const user: Memory[] = [];
  const proj: Memory[] = [];
  lines.forEach((l, i) => {
    const m: Memory = {
      id: `m${(0x100000000000 + i).toString(16).slice(1).padStart(12, '0')}`,
      content: l.content,
      type: l.type ?? 'note',
      scope: l.scope === 'user' ? 'user' : 'project',
      ...(l.scope !== 'user' && { project }),
      stable: l.stable ?? false,
      pinned: false,
      importance: l.importance ?? 0.6,
      createdAt: l.createdAt as string,
      lastSeenAt: l.lastSeenAt as string,
      reinforcements: 0,
      sources: [],
      origin: 'import',
    };
    (m.scope === 'user' ? user : proj).push(m);
  });
  const write = (ns: Namespace, memories: Memory[]) => {
    const file = fileFor(paths.memoryDir, ns);
    mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
    writeFileSync(file, JSON.stringify({ version: 1, namespace: ns, memories }), { mode: 0o600 });
  };
  write({ scope: 'user' }, user);
  write({ scope: 'project', project }, proj);
}

type Say = (line: string) => void;

/** Recall and CLI latency against the store the daemon has now; figures labelled `label`. */
async function measure(
  d: { client: ApiClient; cliEnv: Record<string, string> },
  label: string,
  project: string,
  o: { samples: number; cliRuns: number; big: boolean },
  r: Rand,
  say: Say,
): Promise<Figure[]> {
  const lat = await recallLatency(d.client, project, o.samples, r);
  say(
    `${label}: recall without query p50 ${fmt(p(lat.plain, 50))} p90 ${fmt(p(lat.plain, 90))} p99 ${fmt(p(lat.plain, 99))} max ${fmt(Math.max(...lat.plain))} ms; ` +
      `with query p50 ${fmt(p(lat.query, 50))} p90 ${fmt(p(lat.query, 90))} p99 ${fmt(p(lat.query, 99))} max ${fmt(Math.max(...lat.query))} ms (${lat.plain.length} each${lat.plain.length < o.samples ? `, cut at ${LOOP_MS / 1000} s` : ''}, interleaved; items per answer median ${median(lat.items)})`,
  );
  const c = await cliLatency(d.cliEnv, project, o.cliRuns);
  say(
    `${label}: \`nightshift recall --project P\` (${c.bytes} bytes out) p50 ${fmt(p(c.cli, 50))} p90 ${fmt(p(c.cli, 90))} ms; ` +
      `\`node -e 0\` p50 ${fmt(p(c.node, 50))} p90 ${fmt(p(c.node, 90))} ms (${o.cliRuns} runs each, alternated)`,
  );
  const figures: Figure[] = o.big
    ? [
        atMost(`${label}: recall, no query, p50`, p(lat.plain, 50), 'ms', 50),
        info(`${label}: recall, no query, p99`, p(lat.plain, 99), 'ms'),
        atMost(`${label}: recall --query, p50`, p(lat.query, 50), 'ms', 50),
        info(`${label}: recall --query, p99`, p(lat.query, 99), 'ms'),
      ]
    : [
        atMost(`${label}: recall, no query, p50`, p(lat.plain, 50), 'ms', 10),
        atMost(`${label}: recall, no query, p99`, p(lat.plain, 99), 'ms', 50),
        atMost(`${label}: recall --query, p50`, p(lat.query, 50), 'ms', 10),
        atMost(`${label}: recall --query, p99`, p(lat.query, 99), 'ms', 50),
      ];
  figures.push(
    atMost(`${label}: \`nightshift recall\` end to end, p50`, p(c.cli, 50), 'ms', 200),
    info(`${label}: floor \`node -e 0\`, p50`, p(c.node, 50), 'ms', 'baseline'),
    info(`${label}: CLI over the floor (p50s)`, p(c.cli, 50) - p(c.node, 50), 'ms'),
  );
  return figures;
}

/**
 * Recall at `count` memories on this build and on the baseline's: the same store written to two
 * homes, both daemons up side by side, `client.recall` round trips alternated (order flipped each
 * sample), with and without a query. Issue 19: "recall p50 at 10k memories unchanged" (≤ 1.25 ×).
 */
async function againstBaseline(base: { cli: string; ref: string }, count: number, project: string, now: number, samples: number, say: Say): Promise<Figure[]> {
  const work = tempDir('ns-bench-recall-ab-');
  const up: Running[] = [];
  try {
    const lines = memoryLines(rng(20261125), count, project, now);
    const start = async (cliPath: string, name: string) => {
      const home = join(work.dir, name);
      mkdirSync(home);
      writeConfig(homePaths(home));
      seedStore(homePaths(home), lines, project);
      const d = await startDaemon(cliPath, home);
      up.push(d);
      const st = await waitStatus(d.client, (x) => x.memory?.loading !== true);
      if (st.memory?.memories !== count) throw new Error(`${name}: the daemon loaded ${st.memory?.memories} memories, expected ${count}`);
      return d.client;
    };
    const builds = { now: await start(CLI, 'now'), base: await start(base.cli, 'base') };
    const r = rng(20261126);
    const t = { now: { plain: [] as number[], query: [] as number[] }, base: { plain: [] as number[], query: [] as number[] } };
    const until = performance.now() + LOOP_MS;
    for (let i = -20; i < samples && performance.now() < until; i++) {
      const query = recallQuery(r);
      for (const k of i % 2 === 0 ? (['now', 'base'] as const) : (['base', 'now'] as const)) {
        for (const withQuery of [false, true]) {
          const t0 = performance.now();
          await builds[k].recall(withQuery ? { project, query } : { project });
          if (i >= 0) t[k][withQuery ? 'query' : 'plain'].push(performance.now() - t0);
        }
      }
    }
    const label = labelOf(count);
    say(
      `${label}, this build beside the baseline ${base.ref} (the same store, ${t.now.plain.length} of each alternated): no query p50 ${fmt(p(t.now.plain, 50))} / ${fmt(p(t.base.plain, 50))} ms, ` +
        `p99 ${fmt(p(t.now.plain, 99))} / ${fmt(p(t.base.plain, 99))} ms; with a query p50 ${fmt(p(t.now.query, 50))} / ${fmt(p(t.base.query, 50))} ms, p99 ${fmt(p(t.now.query, 99))} / ${fmt(p(t.base.query, 99))} ms`,
    );
    return [
      atMost(`${label}: recall p50, this build ÷ baseline ${base.ref}`, p(t.now.plain, 50) / p(t.base.plain, 50), '×', 1.25),
      info(`${label}: recall p50 on the baseline (same store, alternated)`, p(t.base.plain, 50), 'ms', `this build ${fmt(p(t.now.plain, 50))} ms`),
      atMost(`${label}: recall --query p50, this build ÷ baseline`, p(t.now.query, 50) / p(t.base.query, 50), '×', 1.25),
      info(`${label}: recall --query p50 on the baseline`, p(t.base.query, 50), 'ms', `this build ${fmt(p(t.now.query, 50))} ms`),
    ];
  } finally {
    for (const d of up) await d.stop();
    work.remove();
  }
}

const CONFIG = { transcripts: { watch: false }, memory: { extractor: 'heuristic' } };
const labelOf = (n: number) => (n >= 1000 ? `${n / 1000}k` : String(n));

export const recallBench: Bench = {
  name: 'recall',
  title: 'Recall latency with 10,000 and 100,000 memories (in-daemon round trip; `nightshift recall` end to end)',
  budgetSeconds: 420,
  async run(o, say) {
    const [small, big] = o.quick ? [1_000, 5_000] : [10_000, 100_000];
    const opts = { samples: o.quick ? 50 : 250, cliRuns: o.quick ? 8 : 31 };
    const probe = o.quick ? 50 : 200;
    const work = tempDir('ns-bench-recall-');
    const project = work.dir; // a real directory without .git: the project key is the directory itself
    const base = optionalBaseline(say);
    try {
      const figures: Figure[] = [];
      const r = rng(20261122);
      const now = Date.now();
      // 1. Through the API, as `nightshift memories import` sends it, until the store holds `small`.
      await withDaemon(CONFIG, async (d) => {
        const lines: ImportLine[] = [];
        let imp = { added: 0, duplicates: 0, ms: 0, requests: 0 };
        let stored = 0;
        while (stored < small) {
          const more = memoryLines(r, Math.max(100, Math.ceil((small - stored) * 1.15)), project, now);
          const got = await importAll(d.client, more);
          imp = { added: imp.added + got.added, duplicates: imp.duplicates + got.duplicates, ms: imp.ms + got.ms, requests: imp.requests + got.requests };
          lines.push(...more);
          stored = (await memoryCounts(d.client)).memories;
        }
        say(
          `imported ${lines.length} lines (${imp.requests} requests of ≤ 256 KiB, a fifth near-duplicates) in ${fmt(imp.ms / 1000)} s = ${fmt(lines.length / (imp.ms / 1000))} lines/s: ` +
            `${imp.added} added, ${imp.duplicates} duplicates; store ${stored} memories; daemon VmRSS ${fmt(statusKiB(d.pid, 'VmRSS') / 1024)} MiB`,
        );
        figures.push(info(`${labelOf(small)}: import through the API, into an empty store`, lines.length / (imp.ms / 1000), 'lines/s'));
        figures.push(...(await measure(d, labelOf(small), project, { ...opts, big: false }, r, say)));
      });
      // 1b. The same size beside the baseline build, when there is one.
      if (base) figures.push(...(await againstBaseline(base, small, project, now, opts.samples, say)));
      // 2. `big` memories written to the home before the daemon starts: importing them through the
      //    API would take minutes (each line's duplicate check grows with the store: 7 ms at 100k).
      const seeded = memoryLines(rng(20261123), big, project, now);
      await withDaemon(
        CONFIG,
        async (d) => {
          const st = await memoryCounts(d.client);
          say(
            `${big} memories written to the home's memory files; daemon up in ${fmt(d.startMs)} ms with ${st.memories} memories; VmRSS ${fmt(statusKiB(d.pid, 'VmRSS') / 1024)} MiB`,
          );
          if (st.memories !== big) throw new Error(`the daemon loaded ${st.memories} memories, expected ${big}`);
          figures.push(info(`${labelOf(big)}: daemon start with the store on disk`, d.startMs, 'ms'));
          figures.push(info(`${labelOf(big)}: daemon VmRSS after start`, statusKiB(d.pid, 'VmRSS') / 1024, 'MiB'));
          figures.push(...(await measure(d, labelOf(big), project, { ...opts, big: true }, r, say)));
          // What one more import costs at this size.
          const extra = memoryLines(rng(20261124), probe, project, now);
          const got = await importAll(d.client, extra);
          say(`${probe} more lines imported into the ${labelOf(big)} store in ${fmt(got.ms / 1000)} s (${got.added} added, ${got.duplicates} duplicates)`);
          figures.push(info(`${labelOf(big)}: import through the API, into the ${labelOf(big)} store`, probe / (got.ms / 1000), 'lines/s'));
        },
        { prepare: (paths) => seedStore(paths, seeded, project) },
      );
      return figures;
    } finally {
      base?.remove();
      work.remove();
    }
  },
};
