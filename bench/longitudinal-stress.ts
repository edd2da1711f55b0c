/**
 * Memory over many sessions (issue 20): 200 generated Claude Code sessions of one project
 * (bench/lib/session-gen.ts, one a day, seeded), ingested in time order into a real daemon through
 * the typed client, a dream after every 10th session (as the daily schedule would, roughly), the
 * last one after the last session. The daemon's clock is set to the day after the last session
 * (NIGHTSHIFT_CLOCK_OFFSET_MS, as ../shared/benchmarks/longitudinal/score.mjs does).
 *
 * Figures, each beside a peer from the same run:
 * - active memories of the project after all sessions (target ≤ 150), beside the memories ever added;
 * - the last dream's duration (its report's durationMs, target ≤ 10 s), beside the dream after 50 sessions;
 * - recall p50 / p95 after all sessions against after 50 (by then the recall block is full, so the
 *   ratio measures a longer history, not a fuller block): a second daemon holds the first 50 sessions
 *   (same files, same dreams, its clock the day after its last one), and the two are timed
 *   alternately at the end — `client.recall` round trips (the figure: ratio ≤ 1.25) and whole
 *   `nightshift recall --project P --json` processes (reported);
 * - ingest per session p50 / p95 (client round trip), the last 50 sessions beside the first 50.
 * Then what the store holds, against the generator's ground truth: old tools still stated as current,
 * fixed bugs still active, standing rules and facts in the recall block, one memory per rule or several.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { DreamReport } from '../src/api/dream.js';
import type { Memory, RecallResponse } from '../src/api/memory.js';
import type { ApiClient } from '../src/client/api-client.js';
import { tempDir } from './lib/cleanup.js';
import { withDaemon, type BenchDaemon } from './lib/daemon.js';
import { generateSessions, type GenSession, type Truth } from './lib/session-gen.js';
import { cli } from './lib/spawn.js';
import { fmt, median, percentile } from './lib/stats.js';
import { atMost, info, type Bench, type Figure } from './lib/types.js';

const DAY = 86_400_000;
const CONFIG = { transcripts: { watch: false }, memory: { extractor: 'heuristic' }, dream: { schedule: false } };
/** What a person might type at the start of a prompt in this project (recall with a query). */
const QUERIES = [
  'how do we run the tests',
  'where do new API handlers go',
  'the upload handler crashes again',
  'which database do we use',
  'deploy the api to production',
  'how should I store prices',
  'what linter do we use',
  'commit this change',
];

type Say = (line: string) => void;

interface Ingested {
  ms: number[];
  added: { project: number; user: number };
  reinforced: number;
  superseded: number;
  dreams: { after: number; report: DreamReport }[];
}

/** Ingests `sessions` in order through the client, a dream after every 10th and after the last. */
async function feed(d: BenchDaemon, sessions: GenSession[], project: string, say: Say, onSession?: (i: number) => Promise<void>): Promise<Ingested> {
  const out: Ingested = { ms: [], added: { project: 0, user: 0 }, reinforced: 0, superseded: 0, dreams: [] };
  for (const [i, s] of sessions.entries()) {
    const t0 = performance.now();
    const res = await d.client.ingest({ path: s.file, format: 'claude-code' });
    out.ms.push(performance.now() - t0);
    const sum = res.summary;
    if (!sum || sum.unchanged) throw new Error(`${s.file}: not ingested (${JSON.stringify(res).slice(0, 200)})`);
    if (sum.project !== project) throw new Error(`${s.file}: ingested into project ${sum.project}, expected ${project}`);
    for (const m of sum.added) out.added[m.scope === 'user' ? 'user' : 'project']++;
    out.reinforced += sum.reinforced.length;
    out.superseded += sum.superseded.length;
    if ((i + 1) % 10 === 0 || i === sessions.length - 1) {
      const report = await d.client.dream();
      out.dreams.push({ after: i + 1, report });
      const p = report.phases;
      say(
        `  after ${String(i + 1).padStart(3)} sessions: dream ${report.durationMs} ms (orient ${p.orient.ms}, gather ${p.gather.ms}, consolidate ${p.consolidate.ms}, prune ${p.prune.ms}) ` +
          `over ${p.orient.memories} active: merged ${p.consolidate.merged}, superseded ${p.consolidate.superseded}, archived ${p.prune.archived}, reinforced ${p.gather.reinforced}; ` +
          `added so far ${out.added.project} project + ${out.added.user} user`,
      );
    }
    await onSession?.(i);
  }
  return out;
}

/** Active memories of the project's namespace (`scope`), through the list endpoint: its `total`. */
async function active(client: ApiClient, project: string, scope: 'project' | 'user'): Promise<{ total: number; memories: Memory[] }> {
  const r = await client.call('listMemories', { query: { project, scope, limit: 1000 } });
  return { total: r.total ?? r.memories.length, memories: r.memories };
}

interface Timing {
  plain: number[];
  query: number[];
}

/** `client.recall` round trips on two daemons, alternated (order flipped each sample), after a warm-up. */
async function recallAB(a: ApiClient, b: ApiClient, project: string, samples: number): Promise<{ a: Timing; b: Timing }> {
  const out = { a: { plain: [] as number[], query: [] as number[] }, b: { plain: [] as number[], query: [] as number[] } };
  const one = async (c: ApiClient, query: string | undefined) => {
    const t0 = performance.now();
    await c.recall(query === undefined ? { project } : { project, query });
    return performance.now() - t0;
  };
  for (let i = 0; i < 20; i++) for (const c of [a, b]) await one(c, i % 2 ? undefined : QUERIES[i % QUERIES.length]);
  for (let i = 0; i < samples; i++) {
    const order: ['a' | 'b', ApiClient][] =
      i % 2
        ? [
            ['b', b],
            ['a', a],
          ]
        : [
            ['a', a],
            ['b', b],
          ];
    const query = QUERIES[i % QUERIES.length] as string;
    for (const [k, c] of order) {
      out[k].plain.push(await one(c, undefined));
      out[k].query.push(await one(c, query));
    }
  }
  return out;
}

/** Whole `nightshift recall --project P --json` processes against two daemons, alternated. */
async function cliAB(envA: Record<string, string>, envB: Record<string, string>, project: string, runs: number): Promise<{ a: number[]; b: number[] }> {
  const out = { a: [] as number[], b: [] as number[] };
  const args = ['recall', '--project', project, '--json'];
  for (let i = 0; i < 2; i++) for (const env of [envA, envB]) await cli(args, env);
  for (let i = 0; i < runs; i++) {
    const first = i % 2 === 0;
    const x = await cli(args, first ? envA : envB);
    const y = await cli(args, first ? envB : envA);
    out.a.push((first ? x : y).ms);
    out.b.push((first ? y : x).ms);
  }
  return out;
}

const p = (xs: number[], q: number) => percentile(xs, q);
const FIXED_WORDS = /\b(fixed|no longer|works now|resolved)\b/i;
const has = (text: string, part: string) => text.toLowerCase().includes(part.toLowerCase());

/** What a memory says, by the generator's ground truth. */
function classifier(truth: Truth): (m: Memory) => string {
  const details = new Set(truth.details.map((d) => d.text.toLowerCase().replace(/[.!]$/, '')));
  return (m: Memory): string => {
    const t = m.content;
    if (truth.rules.some((x) => x.re.test(t))) return 'standing rule';
    if (truth.facts.some((x) => x.re.test(t))) return 'stack fact';
    if (truth.switches.some((w) => w.oldRe.test(t) || w.nowRe.test(t))) return 'tool choice';
    if (truth.settings.some((x) => x.re.test(t))) return 'setting';
    if (details.has(t.toLowerCase().replace(/[.!]$/, ''))) return 'project detail (said once)';
    if (truth.bugs.some((b) => has(t, b.component) && has(t, b.condition))) return FIXED_WORDS.test(t) ? 'bug fixed' : 'bug report';
    return 'other (requests, questions, one-offs)';
  };
}

const tally = (xs: string[]) => [...xs.reduce((m, x) => m.set(x, (m.get(x) ?? 0) + 1), new Map<string, number>())].sort((a, b) => b[1] - a[1]);

/** What the store and the recall block hold, against the generator's ground truth. */
function quality(memories: Memory[], archived: Memory[], recalled: RecallResponse, truth: Truth, n: number, say: Say): Figure[] {
  const block = recalled.items.map((i) => i.text);
  const inBlock = (re: RegExp) => block.some((t) => re.test(t));
  const kindOf = classifier(truth);
  say(
    `active memories by what they say: ${tally(memories.map(kindOf))
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')}`,
  );
  // Why what left the store left: reason (numbers folded) × what it said.
  const why = (m: Memory) =>
    m.supersededBy !== undefined
      ? 'superseded'
      : (m.archiveReason ?? 'archived')
          .replace(/ in session \S+.*$/, '')
          .replace(/[:(].*$/, '')
          .replace(/\d+/g, 'N')
          .trim();
  say(`archived or superseded: ${archived.length}`);
  for (const [reason, count] of tally(archived.map(why)))
    say(
      `  ${count} ${reason}: ${tally(archived.filter((m) => why(m) === reason).map(kindOf))
        .map(([k, v]) => `${k} ${v}`)
        .join(', ')}`,
    );
  const others = memories.filter((m) => kindOf(m).startsWith('other'));
  for (const m of others.slice(0, 8)) say(`  other, active: [${m.type}] ${m.content.slice(0, 110)}`);

  // Tools replaced: memories that still state the old one (without naming the new) as current.
  const switched = truth.switches.filter((w) => w.at < n);
  let stale = 0;
  let nowRecalled = 0;
  for (const w of switched) {
    const old = memories.filter((m) => w.oldRe.test(m.content) && !w.nowRe.test(m.content));
    const cur = memories.filter((m) => w.nowRe.test(m.content));
    stale += old.length;
    if (inBlock(w.nowRe)) nowRecalled++;
    say(
      `  ${w.old} → ${w.now} (session ${w.at + 1}): ${old.length} active still stating ${w.old}${old.length ? ` ("${old[0]?.content.slice(0, 70)}")` : ''}, ${cur.length} naming ${w.now}; ${w.now} in the recall block: ${inBlock(w.nowRe) ? 'yes' : 'no'}`,
    );
  }
  // Settings whose number changed: memories that still give the old value (without the new one).
  const changed = truth.settings.filter((x) => x.at < n);
  let staleValues = 0;
  for (const x of changed) {
    const old = memories.filter((m) => x.re.test(m.content) && m.content.includes(x.old) && !m.content.includes(x.now));
    staleValues += old.length;
    say(
      `  ${x.id}: ${x.old} → ${x.now} (session ${x.at + 1}): ${old.length} active still giving ${x.old}, ${memories.filter((m) => m.content.includes(x.now)).length} giving ${x.now}; ${x.now} in the recall block: ${block.some((t) => t.includes(x.now)) ? 'yes' : 'no'}`,
    );
  }
  // Bugs: the report of a bug said to be fixed later should be history.
  const fixed = truth.bugs.filter((b) => b.fixed !== undefined);
  const open = truth.bugs.filter((b) => b.fixed === undefined);
  const reportActive = (b: Truth['bugs'][number]) =>
    memories.some((m) => has(m.content, b.component) && has(m.content, b.condition) && !FIXED_WORDS.test(m.content));
  const fixedActive = fixed.filter(reportActive).length;
  const openActive = open.filter(reportActive).length;
  say(`bugs: ${fixed.length} reported then fixed, ${fixedActive} of their reports still active; ${open.length} still open, ${openActive} of them active`);
  // Standing rules and facts: in the recall block, and how many active memories say each.
  const rulesIn = truth.rules.filter((x) => inBlock(x.re)).length;
  const factsIn = truth.facts.filter((x) => inBlock(x.re)).length;
  const perRule = truth.rules.map((x) => memories.filter((m) => x.re.test(m.content)).length);
  say(
    `standing rules: ${rulesIn}/${truth.rules.length} in the recall block; active memories per rule ${perRule.join(' ')} (said ${truth.rules.map((x) => x.said.length).join(' ')} times); ` +
      `facts: ${factsIn}/${truth.facts.length} in the block`,
  );
  say(`recall block (default budget): ${recalled.items.length} items, ${recalled.tokens} tokens, ${recalled.considered} considered`);
  return [
    info('old tools still stated as current (active memories)', stale, '', `${switched.length} tools replaced`),
    info('replaced tools whose new one is in the recall block', nowRecalled, `of ${switched.length}`, 'a memory line or a recent session’s digest'),
    info('changed settings still given with the old value (active memories)', staleValues, '', `${changed.length} settings changed`),
    info('fixed bugs whose report is still active', fixedActive, `of ${fixed.length}`, `open bugs active: ${openActive} of ${open.length}`),
    info('standing rules in the recall block', rulesIn, `of ${truth.rules.length}`),
    info('active memories per standing rule, max', Math.max(...perRule), '', `median ${fmt(median(perRule))}`),
    info('stack facts in the recall block', factsIn, `of ${truth.facts.length}`),
  ];
}

export const longitudinalStressBench: Bench = {
  name: 'longitudinal-stress',
  title: '200 generated sessions of one project in time order: active memories, the last dream, recall after 200 vs after 50 sessions, ingest per session',
  budgetSeconds: 600,
  async run(o, say) {
    const n = o.quick ? 40 : 200;
    const early = o.quick ? 20 : 50;
    const samples = o.quick ? 60 : 200;
    const cliRuns = o.quick ? 8 : 31;
    const work = tempDir('ns-bench-longi-');
    try {
      const project = join(work.dir, 'acme-shop'); // a real directory without .git: the project key is the directory itself
      const dir = join(work.dir, 'sessions');
      mkdirSync(project);
      mkdirSync(dir);
      const g0 = performance.now();
      const { sessions, truth } = generateSessions(dir, { count: n, cwd: project, seed: 20261125 });
      const msgs = sessions.map((s) => s.messages);
      say(
        `generated ${n} sessions (${sessions[0]?.started.slice(0, 10)} to ${sessions[n - 1]?.started.slice(0, 10)}) in ${fmt(performance.now() - g0)} ms: ` +
          `${msgs.reduce((a, b) => a + b, 0)} messages (${Math.min(...msgs)}–${Math.max(...msgs)} per session), ${sessions.reduce((a, s) => a + s.userMessages, 0)} typed by the person; ` +
          `${truth.rules.length} standing rules said ${truth.rules.reduce((a, x) => a + x.said.length, 0)} times, ${truth.switches.length} tools replaced, ${truth.bugs.length} bugs (${truth.bugs.filter((b) => b.fixed !== undefined).length} fixed later)`,
      );
      const offset = (s: GenSession) => String(Date.parse(s.started) + DAY - Date.now());
      const firstSessions = sessions.slice(0, early);
      return await withDaemon(
        CONFIG,
        async (a) => {
          say(`daemon A: the first ${early} sessions`);
          const fedA = await feed(a, firstSessions, project, say);
          return await withDaemon(
            CONFIG,
            async (b) => {
              say(`daemon B: all ${n} sessions`);
              const inRun: number[] = [];
              const t0 = performance.now();
              const fed = await feed(b, sessions, project, say, async (i) => {
                if (i + 1 !== early) return;
                // The same daemon after `early` sessions, timed in the run (no peer beside it: for reference).
                for (let k = 0; k < 60; k++) {
                  const s = performance.now();
                  await b.client.recall({ project });
                  if (k >= 10) inRun.push(performance.now() - s);
                }
              });
              const feedS = (performance.now() - t0) / 1000;
              const last = fed.dreams[fed.dreams.length - 1]?.report as DreamReport;
              const twentieth = fed.dreams.find((d) => d.after === early)?.report as DreamReport;
              const maxDream = fed.dreams.reduce((m, d) => (d.report.durationMs > m.report.durationMs ? d : m));
              const proj = await active(b.client, project, 'project');
              const gone = (await b.client.call('listMemories', { query: { project, scope: 'project', archived: '1', limit: 1000 } })).memories;
              const peak = Math.max(...fed.dreams.map((d) => d.report.phases.orient.memories));
              const user = await active(b.client, project, 'user');
              const added = fed.added.project + fed.added.user;
              say(
                `ingested ${n} sessions and ran ${fed.dreams.length} dreams in ${fmt(feedS)} s; added ${fed.added.project} project + ${fed.added.user} user memories, reinforced ${fed.reinforced} times, ` +
                  `superseded ${fed.superseded} at ingest; active now: ${proj.total} project + ${user.total} user`,
              );
              say(
                `last dream: ${last.durationMs} ms (orient ${last.phases.orient.ms}, gather ${last.phases.gather.ms}, consolidate ${last.phases.consolidate.ms}, prune ${last.phases.prune.ms} ms); ` +
                  `slowest: ${maxDream.report.durationMs} ms after ${maxDream.after} sessions`,
              );
              const merged = fed.dreams.reduce((s, d) => s + d.report.phases.consolidate.merged, 0);
              const superseded = fed.dreams.reduce((s, d) => s + d.report.phases.consolidate.superseded, 0);
              say(
                `over all dreams: merged ${merged}, superseded ${superseded}, archived ${fed.dreams.reduce((s, d) => s + d.report.phases.prune.archived, 0)}`,
              );

              // Recall now against the daemon that holds the first `early` sessions, alternated.
              const lat = await recallAB(a.client, b.client, project, samples);
              const c = await cliAB(a.cliEnv, b.cliEnv, project, cliRuns);
              const pa = await active(a.client, project, 'project');
              say(
                `recall, client round trip (${samples} each, alternated): after ${early} sessions (${pa.total} active) p50 ${fmt(p(lat.a.plain, 50))} p95 ${fmt(p(lat.a.plain, 95))} ms, ` +
                  `with a query p50 ${fmt(p(lat.a.query, 50))} p95 ${fmt(p(lat.a.query, 95))} ms; after ${n} (${proj.total} active) p50 ${fmt(p(lat.b.plain, 50))} p95 ${fmt(p(lat.b.plain, 95))} ms, ` +
                  `with a query p50 ${fmt(p(lat.b.query, 50))} p95 ${fmt(p(lat.b.query, 95))} ms; in the run, B after ${early} sessions p50 ${fmt(median(inRun))} ms`,
              );
              say(
                `\`nightshift recall --project P --json\` (${cliRuns} each, alternated): after ${early} p50 ${fmt(p(c.a, 50))} p95 ${fmt(p(c.a, 95))} ms; after ${n} p50 ${fmt(p(c.b, 50))} p95 ${fmt(p(c.b, 95))} ms`,
              );
              const firstMs = fed.ms.slice(0, early);
              const lastMs = fed.ms.slice(-early);
              say(
                `ingest per session (client round trip): p50 ${fmt(p(fed.ms, 50))} p95 ${fmt(p(fed.ms, 95))} max ${fmt(Math.max(...fed.ms))} ms; first ${early} p50 ${fmt(p(firstMs, 50))} ms, last ${early} p50 ${fmt(p(lastMs, 50))} ms`,
              );
              const recalled = await b.client.recall({ project });
              const ratio = (x: number[], y: number[], q: number) => p(x, q) / p(y, q);
              return [
                atMost(`active memories of the project after ${n} sessions`, proj.total, '', 150),
                info('peer: memories ever added (project + user, before any dream)', added, '', `${fed.added.project} project, ${fed.added.user} user`),
                info('active memories of the user namespace', user.total, '', 'cap 150 per namespace'),
                atMost(`the last dream (after ${n} sessions), durationMs`, last.durationMs / 1000, 's', 10),
                info(
                  `peer: the dream after ${early} sessions`,
                  twentieth.durationMs / 1000,
                  's',
                  `slowest of the run: ${fmt(maxDream.report.durationMs / 1000)} s`,
                ),
                atMost(`recall p50 after ${n} ÷ after ${early} sessions (client)`, ratio(lat.b.plain, lat.a.plain, 50), '×', 1.25),
                info(`recall p50 after ${n} sessions (client)`, p(lat.b.plain, 50), 'ms', `after ${early}: ${fmt(p(lat.a.plain, 50))} ms`),
                info(
                  `recall p95 after ${n} ÷ after ${early} (client)`,
                  ratio(lat.b.plain, lat.a.plain, 95),
                  '×',
                  `${fmt(p(lat.b.plain, 95))} / ${fmt(p(lat.a.plain, 95))} ms`,
                ),
                atMost(`recall with a query p50 after ${n} ÷ after ${early} (client)`, ratio(lat.b.query, lat.a.query, 50), '×', 1.25),
                info(`recall --json end to end p50 after ${n} ÷ after ${early} (CLI)`, ratio(c.b, c.a, 50), '×', `${fmt(p(c.b, 50))} / ${fmt(p(c.a, 50))} ms`),
                info(
                  'ingest per session, p50 (client round trip)',
                  p(fed.ms, 50),
                  'ms',
                  `first ${early}: ${fmt(p(firstMs, 50))} ms, last ${early}: ${fmt(p(lastMs, 50))} ms`,
                ),
                info('ingest per session, p95', p(fed.ms, 95), 'ms', `daemon A (${early} sessions) p95 ${fmt(p(fedA.ms, 95))} ms`),
                info('active memories at the start of any dream, max', peak, '', 'the most the store held'),
                ...quality([...proj.memories, ...user.memories], gone, recalled, truth, n, say),
              ];
            },
            { env: { NIGHTSHIFT_CLOCK_OFFSET_MS: offset(sessions[n - 1] as GenSession) } },
          );
        },
        { env: { NIGHTSHIFT_CLOCK_OFFSET_MS: offset(firstSessions[early - 1] as GenSession) } },
      );
    } finally {
      work.remove();
    }
  },
};
