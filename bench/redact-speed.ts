/**
 * Redaction speed: `redact` on one-line messages of 1, 5, 20 and 50 MB, with and without spaces,
 * scanned whole (`budget: Infinity`, the scanner itself, median of three: its time per MB must stay
 * flat) and with the
 * default budget (what a message pays: a line past the budget is masked whole). The previous build's
 * `redact` (its src/redact, or src/memory/redact before the move, from `git archive`) runs on the same texts where it can (it
 * overflows the stack on a long run with no spaces). Then a 50 MB Claude Code transcript is ingested
 * by this build's daemon and by the previous build's, alternating, three times each.
 * Run: `npx tsx bench/run.ts redact-speed` (builds nothing; the baseline is built in a temporary worktree).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { redact } from '../src/redact/redact.js';
import { writeClaudeTranscript } from './lib/claude-transcript.js';
import { tempDir } from './lib/cleanup.js';
import { withDaemon } from './lib/daemon.js';
import { baselineCli, homePaths, startDaemon, writeConfig } from './lib/restart-home.js';
import { fmt, median } from './lib/stats.js';
import { atMost, info, type Bench, type Figure } from './lib/types.js';

const REPO = resolve(import.meta.dirname, '..');
const MiB = 1024 * 1024;
const SIZES = [1, 5, 20, 50];

/** One line of `mb` MB: random-looking token characters, or words and spaces. */
function line(mb: number, spaces: boolean): string {
  const unit = spaces ? 'the deploy of the billing service ran 42 checks fine ' : 'aZ3bY4cX5dW6eV7fU8gT1hS2iR3jQ4kP5lO6mN7';
  return unit.repeat(Math.ceil((mb * 1e6) / unit.length)).slice(0, mb * 1e6);
}

type Redact = (text: string, o?: { budget?: number }) => { text: string };

function timed(fn: () => unknown): number | string {
  const t0 = performance.now();
  try {
    fn();
    return performance.now() - t0;
  } catch (err) {
    return (err as Error).message;
  }
}

/**
 * The previous build's redaction module, from `git archive` of its src/redact (src/memory/redact
 * before it had a folder of its own; it imports only packages), unpacked under bench/.out so that it
 * resolves this checkout's node_modules.
 */
async function previousRedact(ref: string, dir: string): Promise<Redact> {
  mkdirSync(dir, { recursive: true });
  const own = spawnSync('git', ['-C', REPO, 'cat-file', '-e', `${ref}:src/redact/redact.ts`]).status === 0;
  const folder = own ? 'src/redact' : 'src/memory/redact';
  const archive = spawnSync('sh', ['-c', `git -C ${REPO} archive ${ref} ${folder} | tar -x -C ${dir}`], { encoding: 'utf8' });
  if (archive.status !== 0) throw new Error(`git archive: ${archive.stderr}`);
  const mod = (await import(pathToFileURL(join(dir, folder, 'redact.ts')).href)) as { redact: Redact };
  return mod.redact;
}

export const redactSpeedBench: Bench = {
  name: 'redact-speed',
  title: 'Redaction: 1–50 MB one-line messages (linear), and a 50 MB ingest beside the previous build',
  budgetSeconds: 300,
  async run(o, say) {
    const sizes = o.quick ? [1, 5] : SIZES;
    const ref = process.env.NIGHTSHIFT_BASELINE_REF ?? spawnSync('git', ['-C', REPO, 'merge-base', 'HEAD', 'main'], { encoding: 'utf8' }).stdout.trim();
    const work = tempDir('ns-bench-redact-');
    const figures: Figure[] = [];
    try {
      const prevDir = join(REPO, 'bench/.out/prev-redact');
      const old = await previousRedact(ref, prevDir);
      // Warm-up: the secretlint preset loads on first use, and the JIT settles.
      for (let i = 0; i < 3; i++) redact(line(1, i % 2 === 0), { budget: Infinity });
      for (const spaces of [false, true]) {
        const label = spaces ? 'with spaces' : 'no spaces';
        const perMb: number[] = [];
        for (const mb of sizes) {
          const text = line(mb, spaces);
          // The median of three: one run of a 50 MB line is at the mercy of a collection or a neighbour's burst.
          const runs = [0, 1, 2].map(() => timed(() => redact(text, { budget: Infinity })));
          const failed = runs.find((t) => typeof t !== 'number');
          const whole = failed ?? median(runs as number[]);
          const budgeted = timed(() => redact(text));
          const before = timed(() => old(text));
          const show = (t: number | string) => (typeof t === 'number' ? `${fmt(t)} ms` : `fails (${t})`);
          say(`${label}, ${mb} MB: scanned whole ${show(whole)}; with the budget ${show(budgeted)}; previous build ${show(before)}`);
          if (typeof whole !== 'number') throw new Error(`redact failed on ${mb} MB ${label}: ${whole}`);
          perMb.push(whole / mb);
          figures.push(info(`${label}, ${mb} MB: scanned whole, per MB`, whole / mb, 'ms'));
        }
        // Linear: the largest size costs per MB within 1.5× of the smallest.
        figures.push(atMost(`${label}: per-MB time, largest ÷ smallest size`, (perMb.at(-1) ?? 0) / (perMb[0] ?? 1), '×', 1.5));
      }

      // A 50 MB transcript ingested by both builds, alternating (this build first).
      const size = (o.quick ? 5 : 50) * MiB;
      const dir = join(work.dir, 'ingest');
      const cwd = join(dir, 'billing');
      mkdirSync(cwd, { recursive: true });
      const file = join(dir, 'session.jsonl');
      const gen = await writeClaudeTranscript(file, size, { cwd, sessionId: '5f0e8d2a-3b7c-4e19-9a61-2c4d8b7e1f03' });
      say(`transcript: ${fmt(gen.bytes / MiB)} MiB, ${gen.lines} lines, ${gen.toolResults} tool results`);
      const base = baselineCli(say);
      const now: number[] = [];
      const prev: number[] = [];
      try {
        for (let round = 0; round < (o.quick ? 1 : 3); round++) {
          now.push(
            await withDaemon({ transcripts: { watch: false }, memory: { extractor: 'heuristic' } }, async (d) => {
              const t0 = performance.now();
              await d.client.ingest({ path: file });
              return performance.now() - t0;
            }),
          );
          const home = tempDir('ns-bench-redact-base-');
          try {
            writeConfig(homePaths(home.dir));
            const d = await startDaemon(base.cli, home.dir);
            try {
              const t0 = performance.now();
              await d.client.ingest({ path: file });
              prev.push(performance.now() - t0);
            } finally {
              await d.stop();
            }
          } finally {
            home.remove();
          }
        }
      } finally {
        base.remove();
      }
      say(`ingest ${fmt(size / MiB)} MiB: this build ${now.map(fmt).join(' ')} ms; previous build (${base.ref}) ${prev.map(fmt).join(' ')} ms`);
      figures.push(
        info('ingest 50 MiB: this build (median)', median(now) / 1000, 's'),
        info(`ingest 50 MiB: previous build ${base.ref} (median)`, median(prev) / 1000, 's'),
        atMost('ingest 50 MiB: this build ÷ previous build', median(now) / median(prev), '×', 1.2),
      );
      return figures;
    } finally {
      work.remove();
      rmSync(join(REPO, 'bench/.out/prev-redact'), { recursive: true, force: true });
    }
  },
};
