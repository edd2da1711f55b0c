/**
 * LoCoMo (Maharana et al. 2024, CC BY-NC 4.0; read from ../shared, never copied into the repo):
 * evidence recall of `search` and `recall --query` over the 10 long conversations, against plain
 * BM25 over the raw turns measured here with the same scoring.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import MiniSearch from 'minisearch';
import { IngestSummary } from '../src/api/memory.js';
import { tempDir } from './lib/cleanup.js';
import { memoryCounts, withDaemon } from './lib/daemon.js';
import { cli } from './lib/spawn.js';
import { fmt, median } from './lib/stats.js';
import { atLeast, atMost, info, type Bench, type Figure } from './lib/types.js';

/**
 * The data, read in place: NIGHTSHIFT_LOCOMO_FILE, else shared/benchmarks/locomo/locomo10.json in the
 * nearest directory above the repository that has it (../shared from a checkout, ../../shared from a
 * worktree under wt/).
 */
export function locomoFile(): string {
  const fromEnv = process.env['NIGHTSHIFT_LOCOMO_FILE'];
  if (fromEnv) return fromEnv;
  let dir = resolve(import.meta.dirname, '..');
  for (;;) {
    const candidate = join(dir, 'shared/benchmarks/locomo/locomo10.json');
    if (existsSync(candidate)) return candidate;
    const up = dirname(dir);
    if (up === dir) return resolve(import.meta.dirname, '../../shared/benchmarks/locomo/locomo10.json');
    dir = up;
  }
}

/** Plain BM25 over raw turns as quoted in the brief (recall@5 / @10 / @20). */
const QUOTED_BASELINE = [0.47, 0.54, 0.61] as const;
const KS = [5, 10, 20] as const;
const CATEGORIES: Record<number, string> = { 1: 'multi-hop', 2: 'temporal', 3: 'open-domain', 4: 'single-hop' };

interface Turn {
  speaker: string;
  dia_id: string;
  text: string;
  blip_caption?: string;
}

interface Sample {
  sample_id: string;
  conversation: Record<string, unknown> & { speaker_a: string; speaker_b: string };
  qa: { question: string; answer?: unknown; evidence?: string[]; category: number }[];
}

interface Question {
  sample: string;
  /** Conversations 0–4 tuned the episode ranking; 5–9 are held out. */
  heldOut: boolean;
  project: string;
  question: string;
  category: number;
  evidence: string[];
}

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];

/** "1:56 pm on 8 May, 2023" → ISO (taken as UTC). */
export function locomoDate(s: string): string {
  const m = /^(\d{1,2}):(\d{2})\s*(am|pm)\s+on\s+(\d{1,2})\s+([A-Za-z]+),?\s+(\d{4})$/i.exec(s.trim());
  if (!m) throw new Error(`unparseable LoCoMo date: ${s}`);
  const month = MONTHS.indexOf((m[5] as string).toLowerCase());
  if (month < 0) throw new Error(`unknown month in ${s}`);
  let hour = Number(m[1]) % 12;
  if ((m[3] as string).toLowerCase() === 'pm') hour += 12;
  return new Date(Date.UTC(Number(m[6]), month, Number(m[4]), hour, Number(m[2]))).toISOString();
}

/**
 * Evidence ids as the dataset writes them, cleaned: a few entries hold several ids ("D8:6; D9:17",
 * "D9:1 D4:4"), one has a stray colon ("D:11:26"), one a leading zero ("D30:05"), one is just "D".
 */
export function evidenceIds(raw: readonly string[]): string[] {
  const out = new Set<string>();
  for (const entry of raw) {
    for (const part of entry.split(/[;,\s]+/)) {
      const m = /^D:?(\d+):0*(\d+)$/.exec(part.trim());
      if (m) out.add(`D${m[1]}:${m[2]}`);
    }
  }
  return [...out];
}

function sessions(s: Sample): { n: number; date: string; turns: Turn[] }[] {
  const out: { n: number; date: string; turns: Turn[] }[] = [];
  for (const [key, value] of Object.entries(s.conversation)) {
    const m = /^session_(\d+)$/.exec(key);
    if (!m || !Array.isArray(value) || value.length === 0) continue;
    const date = s.conversation[`${key}_date_time`];
    if (typeof date !== 'string') throw new Error(`${s.sample_id} ${key} has no date`);
    out.push({ n: Number(m[1]), date: locomoDate(date), turns: value as Turn[] });
  }
  return out.sort((a, b) => a.n - b.n);
}

const turnContent = (t: Turn) => (t.blip_caption ? `${t.text} [image: ${t.blip_caption}]` : t.text);

/** One plain-messages JSONL line per turn: speaker_a is the user, speaker_b the assistant. */
function sessionJsonl(s: Sample, turns: Turn[], date: string): string {
  return turns
    .map(
      (t) =>
        `${JSON.stringify({ role: t.speaker === s.conversation.speaker_a ? 'user' : 'assistant', name: t.speaker, content: turnContent(t), id: t.dia_id, timestamp: date })}\n`,
    )
    .join('');
}

/** Fraction of the evidence among `ids` (deduplicated, in rank order) cut at each k. */
function recallAtK(evidence: readonly string[], rankedIds: readonly (readonly string[])[]): number[] {
  return KS.map((k) => {
    const found = new Set(rankedIds.slice(0, k).flat());
    return evidence.filter((e) => found.has(e)).length / evidence.length;
  });
}

class Scores {
  private readonly rows: { category: number; r: number[] }[] = [];
  add(category: number, r: number[]): void {
    this.rows.push({ category, r });
  }
  mean(category?: number): number[] {
    const rows = category === undefined ? this.rows : this.rows.filter((x) => x.category === category);
    return KS.map((_, i) => (rows.length ? rows.reduce((a, x) => a + (x.r[i] as number), 0) / rows.length : NaN));
  }
  count(category?: number): number {
    return category === undefined ? this.rows.length : this.rows.filter((x) => x.category === category).length;
  }
}

const triple = (xs: number[]) => xs.map((x) => x.toFixed(3)).join(' / ');

export const locomo: Bench = {
  name: 'locomo',
  title: 'LoCoMo evidence recall@5/@10/@20 of search and recall --query vs plain BM25 over raw turns',
  budgetSeconds: 300,
  async run(o, say) {
    const file = locomoFile();
    if (!existsSync(file)) throw new Error(`LoCoMo data not found at ${file} (set NIGHTSHIFT_LOCOMO_FILE, or put shared/benchmarks/locomo/ above the repo)`);
    const all = JSON.parse(readFileSync(file, 'utf8')) as Sample[];
    say(`data: ${file} (read in place)`);
    const samples = o.quick ? all.slice(0, 2) : all;
    const work = tempDir('ns-bench-locomo-');
    try {
      return await withDaemon({ transcripts: { watch: false }, memory: { extractor: 'heuristic' } }, async ({ client, cliEnv }) => {
        // ── ingest: one plain-messages file per session, through the daemon ──
        const questions: Question[] = [];
        const turnsBySample = new Map<string, Turn[]>();
        let files = 0;
        let turns = 0;
        let added = 0;
        const t0 = performance.now();
        let first = true;
        for (const [n, s] of samples.entries()) {
          const project = `/locomo/${s.sample_id}`;
          const dir = join(work.dir, s.sample_id);
          mkdirSync(dir);
          const sampleTurns: Turn[] = [];
          for (const sess of sessions(s)) {
            const file = join(dir, `session_${sess.n}.jsonl`);
            writeFileSync(file, sessionJsonl(s, sess.turns, sess.date));
            const sessionId = `${s.sample_id}-s${sess.n}`;
            let summary;
            if (first) {
              // The first one through the CLI as a person would run it; the other 271 in-process (faster).
              const r = await cli(['ingest', file, '--project', project, '--session', sessionId, '--json'], cliEnv);
              summary = IngestSummary.parse(JSON.parse(r.stdout));
              first = false;
            } else {
              summary = (await client.ingest({ path: file, project, sessionId })).summary;
            }
            if (!summary || summary.format !== 'messages' || summary.sessionId !== sessionId) {
              throw new Error(`${file}: unexpected ingest summary ${JSON.stringify(summary)?.slice(0, 300)}`);
            }
            added += summary.added.length;
            files++;
            turns += sess.turns.length;
            sampleTurns.push(...sess.turns);
          }
          turnsBySample.set(s.sample_id, sampleTurns);
          for (const q of s.qa) {
            if (!(q.category in CATEGORIES)) continue;
            const evidence = evidenceIds(q.evidence ?? []);
            if (evidence.length === 0) continue;
            questions.push({ sample: s.sample_id, heldOut: n >= 5, project, question: q.question, category: q.category, evidence });
          }
        }
        const ingestS = (performance.now() - t0) / 1000;
        const st = await memoryCounts(client);
        const totalQa = samples.reduce((a, s) => a + s.qa.filter((q) => q.category in CATEGORIES).length, 0);
        say(
          `ingested ${samples.length} conversations: ${files} sessions, ${turns} turns in ${fmt(ingestS)} s; ${added} memories added (heuristic extractor), store ${st.memories} memories, ${st.episodes} episodes; ` +
            `${questions.length} questions of categories 1–4 (${totalQa - questions.length} without usable evidence left out)`,
        );

        // ── the baseline: MiniSearch defaults, raw turn text, one index per conversation ──
        // A second one, "speaker: text", for fairness: the daemon's episode index has the speaker's name
        // in front of each turn, and LoCoMo questions name the speakers.
        type Index = MiniSearch<{ id: string; text: string }>;
        const bm25 = new Map<string, Index>();
        const bm25Speaker = new Map<string, Index>();
        for (const [id, ts] of turnsBySample) {
          const ms: Index = new MiniSearch({ fields: ['text'] });
          ms.addAll(ts.map((t) => ({ id: t.dia_id, text: t.text })));
          bm25.set(id, ms);
          const sp: Index = new MiniSearch({ fields: ['text'] });
          sp.addAll(ts.map((t) => ({ id: t.dia_id, text: `${t.speaker}: ${t.text}` })));
          bm25Speaker.set(id, sp);
        }

        const base = new Scores();
        const baseSpeaker = new Scores();
        const search = new Scores();
        const rec = new Scores();
        const recEpisodes = new Scores();
        const split = { tuned: { base: new Scores(), search: new Scores() }, heldOut: { base: new Scores(), search: new Scores() } };
        const searchMs: number[] = [];
        const recallMs: number[] = [];
        let foreign = 0;
        let memoryItems = 0;
        let topItems = 0;
        const q0 = performance.now();
        for (const q of questions) {
          const b = (bm25.get(q.sample) as Index).search(q.question).slice(0, 20);
          base.add(
            q.category,
            recallAtK(
              q.evidence,
              b.map((h) => [String(h.id)]),
            ),
          );
          const part = q.heldOut ? split.heldOut : split.tuned;
          part.base.add(
            q.category,
            recallAtK(
              q.evidence,
              b.map((h) => [String(h.id)]),
            ),
          );
          const bs = (bm25Speaker.get(q.sample) as Index).search(q.question).slice(0, 20);
          baseSpeaker.add(
            q.category,
            recallAtK(
              q.evidence,
              bs.map((h) => [String(h.id)]),
            ),
          );

          let t = performance.now();
          const hits = await client.search({ q: q.question, project: q.project, limit: 20 });
          searchMs.push(performance.now() - t);
          const found = recallAtK(
            q.evidence,
            hits.filter((h) => h.project === q.project).map((h) => [h.messageId]),
          );
          search.add(q.category, found);
          part.search.add(q.category, found);

          t = performance.now();
          const r = await client.recall({ project: q.project, query: q.question, budget: 8000 });
          recallMs.push(performance.now() - t);
          const top = r.items.slice(0, 20);
          const own = `${q.sample}-s`;
          topItems += top.length;
          for (const it of top) {
            if (it.kind === 'memory') memoryItems++;
            if (it.sources.length > 0 && !it.sources.some((s) => s.sessionId.startsWith(own))) foreign++;
          }
          rec.add(
            q.category,
            recallAtK(
              q.evidence,
              top.map((it) => it.sources.filter((s) => s.sessionId.startsWith(own)).flatMap((s) => s.messageIds)),
            ),
          );
          // Diagnostic: the same answer with the memory lines skipped (episode excerpts in their order).
          const episodes = r.items.filter((it) => it.kind === 'episode').slice(0, 20);
          recEpisodes.add(
            q.category,
            recallAtK(
              q.evidence,
              episodes.map((it) => it.sources.flatMap((s) => s.messageIds)),
            ),
          );
        }
        say(
          `${questions.length} questions in ${fmt((performance.now() - q0) / 1000)} s; search round trip median ${fmt(median(searchMs))} ms, recall --query median ${fmt(median(recallMs))} ms`,
        );
        say(
          `recall --query top 20: ${fmt((100 * memoryItems) / Math.max(1, topItems))} % memories, ${fmt((100 * foreign) / Math.max(1, topItems))} % items whose sources are all in other conversations`,
        );

        const cols: [string, Scores][] = [
          ['BM25 (raw turns)', base],
          ['BM25 (speaker: turn)', baseSpeaker],
          ['search', search],
          ['recall --query', rec],
          ['recall, episodes only', recEpisodes],
        ];
        // The per-category table, as Markdown, from this run alone (paste it into BENCHMARKS.md as it is).
        say(`| recall@5 / @10 / @20 | n | ${cols.map(([n]) => n).join(' | ')} |`);
        say(`|---|---|${cols.map(() => '---|').join('')}`);
        const line = (label: string, c?: number) => say(`| ${label} | ${base.count(c)} | ${cols.map(([, sc]) => triple(sc.mean(c))).join(' | ')} |`);
        line('all');
        for (const c of Object.keys(CATEGORIES).map(Number)) line(`${c} ${CATEGORIES[c]}`, c);
        say(`quoted BM25 baseline: ${QUOTED_BASELINE.join(' / ')}`);
        for (const [label, sc] of [
          ['conversations 0–4 (tuning set)', split.tuned],
          ['conversations 5–9 (held out)', split.heldOut],
        ] as const) {
          if (sc.search.count() > 0) say(`${label.padEnd(32)}BM25 ${triple(sc.base.mean())}   search ${triple(sc.search.mean())}   n ${sc.search.count()}`);
        }

        const b = base.mean();
        const figures: Figure[] = [];
        KS.forEach((k, i) => figures.push(info(`BM25 baseline (measured), recall@${k}`, b[i] as number, '', `quoted ${QUOTED_BASELINE[i]}`)));
        KS.forEach((k, i) => figures.push(info(`BM25 over "speaker: turn" (measured), recall@${k}`, baseSpeaker.mean()[i] as number, '')));
        for (const [name, sc] of [
          ['search', search],
          ['recall --query', rec],
        ] as const) {
          const m = sc.mean();
          KS.forEach((k, i) => {
            const v = m[i] as number;
            const measured = b[i] as number;
            figures.push({
              name: `${name}, recall@${k}`,
              value: v,
              unit: '',
              target: `> BM25 ${measured.toFixed(3)} (quoted ${QUOTED_BASELINE[i]})`,
              ok: v > measured,
            });
          });
        }
        figures.push(atLeast('search, recall@10 (categories 1–4)', search.mean()[1] as number, '', 0.7));
        if (split.heldOut.search.count() > 0)
          figures.push(
            info(
              'search, recall@10, held-out conversations 5–9',
              split.heldOut.search.mean()[1] as number,
              '',
              `BM25 ${(split.heldOut.base.mean()[1] as number).toFixed(3)}`,
            ),
          );
        KS.forEach((k, i) => figures.push(info(`recall --query, episode lines only (diagnostic), recall@${k}`, recEpisodes.mean()[i] as number, '')));
        // Per category, each method against BM25 over the same questions (recall@10 carries the target).
        for (const c of Object.keys(CATEGORIES).map(Number)) {
          const bc = base.mean(c);
          const tag = `category ${c} ${CATEGORIES[c]} (n ${base.count(c)})`;
          figures.push(info(`${tag}: BM25 recall@5 / @10 / @20`, bc[1] as number, '', triple(bc)));
          for (const [name, sc] of [
            ['search', search],
            ['recall --query', rec],
          ] as const) {
            const m = sc.mean(c);
            figures.push({
              name: `${tag}: ${name} recall@10`,
              value: m[1] as number,
              unit: '',
              target: `> BM25 ${(bc[1] as number).toFixed(3)}; @5 / @10 / @20 ${triple(m)}`,
              ok: (m[1] as number) > (bc[1] as number),
            });
          }
        }
        figures.push(
          info('recall --query top 20: memory lines', (100 * memoryItems) / Math.max(1, topItems), '%'),
          info('recall --query top 20: lines sourced only from other conversations', (100 * foreign) / Math.max(1, topItems), '%'),
          atMost(`ingest of ${samples.length} conversations (${files} sessions)`, ingestS, 's', 60),
          info('search round trip, median', median(searchMs), 'ms'),
          info('recall --query round trip, median', median(recallMs), 'ms'),
        );
        return figures;
      });
    } finally {
      work.remove();
    }
  },
};
