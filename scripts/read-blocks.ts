/**
 * Prints, for a person to read and judge, the first items of the block each project of a labelled
 * corpus is handed, out of fold: for each of the scorer's folds, the ranker is fitted without that
 * fold's people, a fresh daemon with those weights ingests the fold's sessions in order, and each
 * project's block is printed in recall order with the labels each item matches (W wanted, J junk,
 * - neither), so the reader sees what the scorer would count beside what the agent would read.
 *
 *   npx tsx scripts/read-blocks.ts LABELS.json [--folds N] [--items K]   (dist/ must be built)
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';

const root = resolve(import.meta.dirname, '..');
const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { folds: { type: 'string', default: '3' }, items: { type: 'string', default: '10' } },
});
const labelsPath = resolve(positionals[0] ?? join(root, '../shared/benchmarks/real-sessions/labels.json'));
interface Label {
  file: string;
  format: string;
  group: string;
  wanted: { regex: string }[];
  junk: { regex: string }[];
}
const labels = JSON.parse(readFileSync(labelsPath, 'utf8')) as Label[];
const folds = Number(values.folds);
const shown = Number(values.items);
const groups = [...new Set(labels.map((l) => l.group))].sort();
const cli = join(root, 'dist/cli.js');

for (let k = 1; k <= folds; k++) {
  const home = mkdtempSync(join(tmpdir(), 'ns-read-'));
  const weights = join(home, 'weights.json');
  execFileSync('npx', ['tsx', join(root, 'scripts/fit-ranker.ts'), '--hold-out', `${k}/${folds}`, '--out', weights], { cwd: root, stdio: 'ignore' });
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NIGHTSHIFT_HOME: home,
    HOME: join(home, 'home'),
    NO_COLOR: '1',
    NIGHTSHIFT_NO_AUTOSTART: '1',
    NIGHTSHIFT_RANKER_WEIGHTS: weights,
  };
  delete env.ANTHROPIC_API_KEY;
  delete env.ANTHROPIC_BASE_URL;
  mkdirSync(join(home, 'home'), { recursive: true });
  mkdirSync(join(home, 'config'), { recursive: true });
  writeFileSync(join(home, 'config', 'config.json'), JSON.stringify({ transcripts: { watch: false } }));
  const ns = (...args: string[]): string =>
    execFileSync('node', [cli, ...args], { env, encoding: 'utf8', maxBuffer: 64 << 20, stdio: ['ignore', 'pipe', 'pipe'] });
  const daemon = spawn('node', [cli, 'daemon'], { env, stdio: 'ignore' });
  try {
    for (let i = 0; i < 100; i++) {
      try {
        ns('status');
        break;
      } catch {
        await new Promise((r) => setTimeout(r, 100));
      }
    }
    const mine = labels.filter((l) => groups.indexOf(l.group) % folds === k - 1);
    const byProject = new Map<string, Label[]>();
    for (const l of mine) {
      const out = JSON.parse(ns('ingest', join(dirname(labelsPath), l.file), '--format', l.format, '--json')) as {
        summary?: { project?: string };
        project?: string;
      };
      const project = out.summary?.project ?? out.project;
      if (project === undefined) continue;
      byProject.set(project, [...(byProject.get(project) ?? []), l]);
    }
    for (const [project, files] of byProject) {
      const items = (JSON.parse(ns('recall', '--project', project, '--json')) as { items: { kind: string; type: string; text: string }[] }).items;
      console.log(`\n## fold ${k}/${folds} · ${project} (${files.map((f) => f.file).join(', ')})`);
      for (const it of items.slice(0, shown)) {
        const w = files.some((f) => f.wanted.some((x) => new RegExp(x.regex, 'i').test(it.text)));
        const j = files.some((f) => f.junk.some((x) => new RegExp(x.regex, 'i').test(it.text)));
        console.log(`${w ? 'W' : '-'}${j ? 'J' : '-'} [${it.kind === 'memory' ? it.type : it.kind}] ${it.text.replace(/\s+/g, ' ')}`);
      }
    }
  } finally {
    daemon.kill('SIGTERM');
    await new Promise((r) => daemon.once('exit', r));
    rmSync(home, { recursive: true, force: true });
  }
}
