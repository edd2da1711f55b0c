/**
 * Memories tied to code (issue 24, item 3).
 * 1. Through the CLI of a real daemon: the scripted git repository of test/helpers/evidence-repo.ts,
 *    thirty statements about its files, keys, scripts and dependencies said in three Claude Code
 *    transcripts and ingested, a dream, ten of the things they name changed or deleted and committed,
 *    a dream: of the ten, how many are marked to re-verify or archived (target 10), of the twenty
 *    others how many are (target 0).
 * 2. Through the CLI of a real daemon: ten `remember`s, each naming a file of a scripted git
 *    repository, the ten files deleted before any ingest or dream, then a dream: how many of the ten
 *    are archived (target 10; evidence is recorded at the remember).
 * 3. In this process, the daemon's dream on 1,000 memories of a generated repository (200 files, 200
 *    config keys, 100 dependencies, 100 scripts): the first dream records their evidence, a tenth of
 *    what they name is changed or deleted, and the second dream's check is timed (target ≤ 1 s).
 *
 * `npm run bench -- evidence` (or `npx tsx bench/run.ts evidence` after `npm run build`).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pino } from 'pino';
import type { DreamReport } from '../src/api/dream.js';
import type { Memory } from '../src/api/memory.js';
import { ConfigSchema } from '../src/config.js';
import { DreamReports } from '../src/dream/reports.js';
import { dream } from '../src/dream/run.js';
import { MemoryService } from '../src/memory/service.js';
import { resolvePaths } from '../src/paths.js';
import { CLAIMS, changeRepo, isClaim, spoken, writeRepo } from '../test/helpers/evidence-repo.js';
import { ClaudeSession } from '../test/helpers/session-lines.js';
import { tempDir } from './lib/cleanup.js';
import { withDaemon } from './lib/daemon.js';
import { CLI, timeNode } from './lib/spawn.js';
import { atLeast, atMost, info, type Bench, type Figure } from './lib/types.js';

async function cliJson<T>(env: Record<string, string>, args: string[]): Promise<T> {
  const r = await timeNode([CLI, ...args, '--json'], env, 120_000);
  if (r.code !== 0) throw new Error(`nightshift ${args.join(' ')} exited ${r.code}: ${r.stderr}`);
  return JSON.parse(r.stdout) as T;
}

async function scripted(say: (l: string) => void): Promise<Figure[]> {
  const tmp = tempDir('ns-bench-evid-');
  try {
    const root = join(tmp.dir, 'shop');
    writeRepo(root);
    return await withDaemon({}, async (d) => {
      for (let s = 0; s < 3; s++) {
        const session = new ClaudeSession({ sessionId: `shop-${s}`, cwd: root, start: `2026-10-0${s + 1}T09:00:00.000Z` });
        for (const c of CLAIMS.slice(s * 10, s * 10 + 10)) session.user(spoken(c)).assistant('Noted.');
        const file = join(tmp.dir, `shop-${s}.jsonl`);
        writeFileSync(file, session.text());
        await cliJson(d.cliEnv, ['ingest', file]);
      }
      await cliJson<DreamReport>(d.cliEnv, ['dream']);
      const { changed, gone } = changeRepo(root);
      const report = await cliJson<DreamReport>(d.cliEnv, ['dream']);
      const all = [
        ...(await cliJson<Memory[]>(d.cliEnv, ['memories', 'list', '--project', root])),
        ...(await cliJson<Memory[]>(d.cliEnv, ['memories', 'list', '--project', root, '--archived'])),
      ];
      const hit = CLAIMS.map((c) => {
        const m = all.find((x) => x.scope === 'project' && isClaim(x.content, c));
        return m !== undefined && (m.archivedAt !== undefined || m.reverify !== undefined);
      });
      const touched = new Set([...changed, ...gone]);
      const found = CLAIMS.filter((c) => all.some((x) => x.scope === 'project' && isClaim(x.content, c))).length;
      say(`${found}/30 statements stored as project memories; the dream after the changes: ${JSON.stringify(report.phases.verify)}`);
      return [
        atLeast('changed or deleted evidence: marked or archived (of 10)', hit.filter((h, i) => h && touched.has(i)).length, '', 10),
        atMost('untouched evidence: marked or archived (of 20)', hit.filter((h, i) => h && !touched.has(i)).length, '', 0),
        info('check in that dream (30 memories, CLI daemon)', report.phases.verify?.ms ?? NaN, 'ms'),
      ];
    });
  } finally {
    tmp.remove();
  }
}

async function remembered(say: (l: string) => void): Promise<Figure[]> {
  const tmp = tempDir('ns-bench-evid-rem-');
  try {
    const root = join(tmp.dir, 'repo');
    mkdirSync(join(root, 'src'), { recursive: true });
    for (let i = 0; i < 10; i++) writeFileSync(join(root, 'src', `part${i}.ts`), `export const part${i} = ${i};\n`);
    git(root, 'init', '-q');
    git(root, 'add', '-A');
    git(root, 'commit', '-q', '-m', 'parts');
    return await withDaemon({}, async (d) => {
      const ids: string[] = [];
      for (let i = 0; i < 10; i++)
        ids.push((await cliJson<Memory>(d.cliEnv, ['remember', '--project', root, `The ${word(i)} handler lives in src/part${i}.ts.`])).id);
      for (let i = 0; i < 10; i++) rmSync(join(root, 'src', `part${i}.ts`));
      const report = await cliJson<DreamReport>(d.cliEnv, ['dream']);
      const archived = await cliJson<Memory[]>(d.cliEnv, ['memories', 'list', '--project', root, '--archived']);
      const hit = ids.filter((id, i) => archived.find((m) => m.id === id)?.archiveReason?.includes(`src/part${i}.ts`)).length;
      say(`remembered, files deleted, dreamt: ${JSON.stringify(report.phases.verify)}`);
      return [atLeast('file named in a remember, deleted before any dream: archived at the dream (of 10)', hit, '', 10)];
    });
  } finally {
    tmp.remove();
  }
}

const git = (root: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.email=b@example.com', '-c', 'user.name=bench', '-c', 'commit.gpgsign=false', ...args], { cwd: root, stdio: 'ignore' });

/** A repository with 200 files, 200 ports in a TOML file, 100 dependencies and 100 scripts; what memory i says of it. */
function generated(root: string): (i: number) => string {
  mkdirSync(join(root, 'src'), { recursive: true });
  git(root, 'init', '-q');
  for (let i = 0; i < 200; i++) writeFileSync(join(root, 'src', `mod${i}.ts`), `export const mod${i} = ${i};\n`);
  writeFileSync(join(root, 'config.toml'), Array.from({ length: 200 }, (_, i) => `[svc${i}]\nport = ${10_000 + i}\n`).join('\n'));
  const deps = Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`lib-${i}`, `^1.${i}.0`]));
  const scripts = Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`task:${i}`, `node tasks/${i}.js`]));
  writeFileSync(join(root, 'package.json'), JSON.stringify({ name: 'big', scripts, dependencies: deps }, null, 2));
  git(root, 'add', '-A');
  git(root, 'commit', '-q', '-m', 'big');
  // Each memory about its own pseudo-words, so the dream merges none of them as restatements (and no
  // "npm run": the store takes every statement naming npm for one slot, `package manager = npm`).
  return (i) => {
    const [a, b] = [word(i), word(i + 7919)];
    return [
      `The ${a} handler behind ${b} lives in src/mod${i % 200}.ts.`,
      `Service svc${i % 200} for ${a} listens on port ${10_000 + (i % 200)}, ${b} included.`,
      `${a} and ${b} are built on lib-${i % 100}.`,
      `The task:${i % 100} script runs whenever ${a} touches ${b}.`,
    ][i % 4] as string;
  };
}

const SYLLABLES = ['ka', 'lo', 'mi', 'nu', 'pe', 'ro', 'si', 'tu', 'va', 'ze'];
const word = (n: number): string => [...String(n).padStart(5, '0')].map((d) => SYLLABLES[Number(d)]).join('');

/** A tenth of what the memories name: files edited and deleted, ports changed, dependencies bumped and removed. */
function changeTenth(root: string): void {
  for (let i = 0; i < 20; i++) {
    if (i % 2 === 0) writeFileSync(join(root, 'src', `mod${i}.ts`), `export const mod${i} = -1;\n`);
    else rmSync(join(root, 'src', `mod${i}.ts`));
  }
  writeFileSync(join(root, 'config.toml'), Array.from({ length: 200 }, (_, i) => `[svc${i}]\nport = ${i < 20 ? 20_000 + i : 10_000 + i}\n`).join('\n'));
  const deps = Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`lib-${i}`, i < 10 ? '^2.0.0' : `^1.${i}.0`]).filter((_, i) => i < 5 || i >= 10));
  const scripts = Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`task:${i}`, `node tasks/${i}.js`]));
  writeFileSync(join(root, 'package.json'), JSON.stringify({ name: 'big', scripts, dependencies: deps }, null, 2));
  git(root, 'add', '-A');
  git(root, 'commit', '-q', '-m', 'a tenth changed');
}

async function thousand(say: (l: string) => void): Promise<Figure[]> {
  const home = tempDir('ns-bench-evid-home-');
  const repo = tempDir('ns-bench-evid-repo-');
  try {
    const paths = resolvePaths({ NIGHTSHIFT_HOME: home.dir });
    const config = ConfigSchema.parse({ transcripts: { watch: false }, dream: { schedule: false } });
    const log = pino({ level: 'warn' });
    const memory = await MemoryService.open(paths, config, log, async () => ({ proposals: [], extractor: 'heuristic' }));
    const text = generated(repo.dir);
    const at = new Date(Date.now() - 86_400_000).toISOString();
    for (let i = 0; i < 1000; i++) {
      memory.store.add({
        ...{ id: `m${i.toString(16).padStart(12, '0')}`, content: text(i), type: 'fact', scope: 'project', project: repo.dir },
        ...{ stable: true, pinned: false, importance: 0.6, createdAt: at, lastSeenAt: at, reinforcements: 0, sources: [], origin: 'import' },
      });
    }
    await memory.store.save();
    const run = () =>
      dream({ memory, reports: new DreamReports(paths.dreamsDir), lockFile: paths.dreamLock, cap: 1_000_000, log }, { dryRun: false, trigger: 'manual' });
    const first = await run();
    const tied = memory.store.list({ scope: 'project', project: repo.dir }).filter((m) => (m.evidence?.length ?? 0) > 0).length;
    changeTenth(repo.dir);
    const second = await run();
    say(`first dream (records evidence): ${JSON.stringify(first.phases.verify)}; second (checks): ${JSON.stringify(second.phases.verify)}`);
    return [
      info('memories tied to evidence by the first dream (of 1,000)', tied, ''),
      info('record at the first dream, 1,000 memories', first.phases.verify?.ms ?? NaN, 'ms'),
      atMost('check at dream time, 1,000 memories', second.phases.verify?.ms ?? NaN, 'ms', 1000),
      info('marked to re-verify by the check', second.phases.verify?.reverify ?? NaN, ''),
      info('archived by the check (evidence gone)', second.phases.verify?.archived ?? NaN, ''),
    ];
  } finally {
    home.remove();
    repo.remove();
  }
}

export const evidenceBench: Bench = {
  name: 'evidence',
  title: 'memories tied to code: evidence marked or archived when it changes, and the check at dream time',
  budgetSeconds: 240,
  async run(_o, say) {
    return [...(await scripted(say)), ...(await remembered(say)), ...(await thousand(say))];
  },
};
