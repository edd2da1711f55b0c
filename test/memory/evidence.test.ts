/**
 * Memories tied to code. A scripted git repository, thirty statements about its
 * files, config keys, scripts and dependencies said in real transcript-format sessions, ten of the
 * things they name changed or deleted; through the CLI against a real daemon: what changed is
 * marked to re-verify (and recalled lower, with the mark), what is gone is archived with the reason
 * and restorable, the twenty others are left alone; a later session that says one again clears its
 * mark, and a later session in the repository checks the rest without a dream.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Memory } from '../../src/api/memory.js';
import { daemonsPerTest, tempDirsPerTest, type TestDaemon } from '../helpers/daemon.js';
import { CLAIMS, changeRepo, isClaim, spoken, writeRepo } from '../helpers/evidence-repo.js';
import { dream, ingest, memories, recall } from '../helpers/memory-cli.js';
import { ClaudeSession } from '../helpers/session-lines.js';

const WEIGHTS = join(import.meta.dirname, '../../src/memory/rank/weights.json');
const newDaemon = daemonsPerTest(afterEach);
const tmp = tempDirsPerTest(afterEach, 'ns-evid-');

/** The thirty claims said over six sessions, five each (a session leaves a few memories, not dozens), as a person types them. */
async function sayAll(d: TestDaemon, root: string, dir: string): Promise<void> {
  for (let s = 0; s < 6; s++) {
    const session = new ClaudeSession({ sessionId: `shop-${s}`, cwd: root, start: `2026-09-2${s}T09:00:00.000Z` });
    for (const c of CLAIMS.slice(s * 5, s * 5 + 5)) session.user(spoken(c)).assistant('Noted.');
    await ingest(d, session, dir, `shop-${s}`);
  }
}

/** Each claim's memory (active or archived), by its words. */
function byClaim(all: Memory[]): (Memory | undefined)[] {
  return CLAIMS.map((c) => all.find((m) => m.scope === 'project' && isClaim(m.content, c)));
}

async function everyMemory(d: TestDaemon, root: string): Promise<Memory[]> {
  return [...(await memories(d, root)), ...(await memories(d, root, true))];
}

describe('memories tied to code', () => {
  it('marks or archives the ten whose evidence changed or went, and none of the other twenty', async () => {
    const dir = tmp();
    const root = join(dir, 'shop');
    writeRepo(root);
    const d = newDaemon();
    await d.start();
    await sayAll(d, root, dir);

    const before = byClaim(await memories(d, root));
    expect(before.map((m, i) => (m === undefined ? CLAIMS[i]?.say : 'ok')).filter((x) => x !== 'ok')).toEqual([]);
    // Each rests on what it names, with the blob of the file that holds it and the commit.
    for (const m of before) {
      expect(m?.evidence?.length, m?.content).toBeGreaterThan(0);
      expect(m?.evidence?.[0]?.blob, m?.content).toMatch(/^[0-9a-f]{40}$/);
      expect(m?.evidence?.[0]?.commit, m?.content).toMatch(/^[0-9a-f]{40}$/);
    }
    const quiet = await dream(d);
    expect(quiet.reverify ?? []).toEqual([]);
    expect(quiet.archives).toEqual([]);

    const { changed, gone } = changeRepo(root);
    const report = await dream(d);
    expect(report.phases.verify?.checked).toBe(30);
    const after = byClaim(await everyMemory(d, root));
    const marked = after.flatMap((m, i) => (m?.reverify !== undefined && m.archivedAt === undefined ? [i] : []));
    const archived = after.flatMap((m, i) => (m?.archivedAt !== undefined ? [i] : []));
    expect(marked).toEqual(changed);
    expect(archived).toEqual(gone);
    // The reasons a person reads.
    const reasonOf = (i: number) => after[i]?.reverify?.reason ?? after[i]?.archiveReason;
    expect(reasonOf(0)).toBe('src/routes.ts changed since it was said');
    expect(reasonOf(2)).toBe('src/auth/session.ts no longer exists');
    expect(reasonOf(10)).toBe('server.port in config/server.toml changed: 8080 → 9090');
    expect(reasonOf(15)).toBe('database.replica_host is no longer in config/db.yaml');
    expect(reasonOf(20)).toBe('dependency zod in package.json changed: ^3.25.0 → ^4.1.0');
    expect(reasonOf(23)).toBe('dependency dayjs is no longer in package.json');
    expect(reasonOf(29)).toBe('script "db:migrate" is no longer in package.json');

    // Marked: recalled with the mark, shown with it in `memories list` and `memories show`.
    const r = await recall(d, root);
    const item = r.items.find((i) => i.id === after[10]?.id);
    expect(item?.reverify).toBe('server.port in config/server.toml changed: 8080 → 9090');
    const rendered = await d.cli(['recall', '--project', root]);
    expect(rendered.stdout).toContain('(to re-verify: server.port in config/server.toml changed: 8080 → 9090)');
    expect((await d.cli(['memories', 'list', '--project', root])).stdout).toMatch(/\[re-verify\] [^\n]*the API server listens on port/);
    const shown = await d.cli(['memories', 'show', after[10]?.id ?? '']);
    expect(shown.stdout).toMatch(/re-verify: +server\.port in config\/server\.toml changed: 8080 → 9090/);
    expect(shown.stdout).toMatch(/evidence: +port server\.port = 8080 in config\/server\.toml \(blob [0-9a-f]{10}, commit [0-9a-f]{10}\)/);

    // Archived: restorable as ever, and a later dream leaves it restored.
    const restored = await d.cli(['memories', 'restore', after[2]?.id ?? '']);
    expect(restored.code, restored.stderr).toBe(0);
    await dream(d);
    const again = byClaim(await everyMemory(d, root));
    expect(again[2]?.archivedAt).toBeUndefined();
    expect(again[2]?.evidence?.[0]?.gone).toBe(true);
  });

  it('ranks a marked memory lower, clears the mark when a later session says it again, and checks at ingest', async () => {
    const dir = tmp();
    const root = join(dir, 'shop');
    writeRepo(root);
    const d = newDaemon();
    // The fitted weights with no floor: a marked memory near the floor would leave the block, and
    // the ratio under test could not be read.
    const weights = join(dir, 'weights.json');
    writeFileSync(weights, JSON.stringify({ ...(JSON.parse(readFileSync(WEIGHTS, 'utf8')) as object), floor: -1 }));
    d.env.NIGHTSHIFT_RANKER_WEIGHTS = weights;
    await d.start();
    await sayAll(d, root, dir);
    // The routes memory against the schema one, said in the same session: only a mark tells them apart.
    const [routes, schema] = byClaim(await memories(d, root));
    const ratio = async () => {
      const items = (await recall(d, root)).items;
      const score = (id: string | undefined) => items.find((i) => i.id === id)?.score ?? NaN;
      return score(routes?.id) / score(schema?.id);
    };
    const first = await ratio();
    expect(first).toBeGreaterThan(0.9);

    // A later session in the repository, about something else: the check runs as it is ingested.
    changeRepo(root);
    const later = new ClaudeSession({ sessionId: 'shop-6', cwd: root, start: '2026-10-04T09:00:00.000Z' });
    later.user('The footer links should open in the same tab.').assistant('Done.');
    await ingest(d, later, dir, 'shop-6');
    const checked = byClaim(await everyMemory(d, root));
    expect(checked[0]?.reverify?.reason).toBe('src/routes.ts changed since it was said');
    expect(checked[2]?.archivedAt).toBeDefined();
    expect(await ratio()).toBeCloseTo(first * 0.5, 5);

    // Said again: confirmed as the file is now; the mark goes and the evidence is the new blob.
    const confirm = new ClaudeSession({ sessionId: 'shop-7', cwd: root, start: '2026-10-05T09:00:00.000Z' });
    confirm.user(spoken(CLAIMS[0] as (typeof CLAIMS)[number])).assistant('Noted.');
    await ingest(d, confirm, dir, 'shop-7');
    const confirmed = byClaim(await memories(d, root))[0];
    expect(confirmed?.reverify).toBeUndefined();
    expect(confirmed?.evidence?.[0]?.blob).not.toBe(routes?.evidence?.[0]?.blob);
    // Edited by the person: the mark goes with the old words, and the dream ties the new ones.
    const port = checked[10];
    expect(port?.reverify).toBeDefined();
    const edited = await d.cli(['memories', 'edit', port?.id ?? '', 'The API server listens on port 9090.']);
    expect(edited.code, edited.stderr).toBe(0);
    const report = await dream(d);
    expect((report.reverify ?? []).map((x) => x.id)).not.toContain(routes?.id);
    const now = (await memories(d, root)).find((m) => m.id === port?.id);
    expect(now?.reverify).toBeUndefined();
    expect(now?.evidence?.map((e) => `${e.key} = ${e.value}`)).toEqual(['server.port = 9090']);
  });

  it('ties memories of a directory that is no git repository, from its pyproject.toml and files', async () => {
    const dir = tmp();
    const root = join(dir, 'api');
    mkdirSync(join(root, 'app'), { recursive: true });
    writeFileSync(join(root, 'pyproject.toml'), '[project]\nname = "api"\ndependencies = ["requests>=2.31", "fastapi==0.110.0"]\n');
    writeFileSync(join(root, 'app', 'main.py'), 'app = None\n');
    const d = newDaemon();
    await d.start();
    const session = new ClaudeSession({ sessionId: 'api-0', cwd: root, start: '2026-10-01T09:00:00.000Z' });
    const said = ['The web layer is built on fastapi.', 'The entry point is app/main.py.', 'Outgoing calls are made with requests.'];
    for (const s of said) session.user(spoken({ say: s })).assistant('Noted.');
    await ingest(d, session, dir, 'api-0');
    const tied = (await memories(d, root)).filter((m) => m.scope === 'project');
    expect(tied.map((m) => m.evidence?.map((e) => `${e.kind} ${e.dependency ?? e.path}`)).sort()).toEqual([
      ['dependency fastapi'],
      ['dependency requests'],
      ['file app/main.py'],
    ]);
    expect(tied.every((m) => /^[0-9a-f]{40}$/.test(m.evidence?.[0]?.blob ?? '') && m.evidence?.[0]?.commit === undefined)).toBe(true);

    writeFileSync(join(root, 'pyproject.toml'), '[project]\nname = "api"\ndependencies = ["requests>=2.31", "fastapi>=0.115"]\n');
    rmSync(join(root, 'app', 'main.py'));
    const report = await dream(d);
    expect(report.reverify?.map((r) => r.reason)).toEqual(['dependency fastapi in pyproject.toml changed: ==0.110.0 → >=0.115']);
    expect(report.archives.map((a) => a.reason)).toEqual(['app/main.py no longer exists']);
  });
});

describe('remember records evidence at once', () => {
  it('a file named in a remember (CLI or API), deleted before any ingest or dream, is archived at the next dream: 10 of 10', async () => {
    const root = join(tmp(), 'repo');
    mkdirSync(join(root, 'src'), { recursive: true });
    for (let i = 0; i < 10; i++) writeFileSync(join(root, 'src', `part${i}.ts`), `export const part${i} = ${i};\n`);
    gitCommit(root);
    const d = newDaemon();
    await d.start();
    const ids: string[] = [];
    for (let i = 0; i < 10; i++) {
      const text = `The ${WORDS[i]} handler lives in src/part${i}.ts.`;
      if (i < 8) {
        const r = await d.cli(['remember', '--project', root, text, '--json']);
        expect(r.code, r.stderr).toBe(0);
        const m = JSON.parse(r.stdout) as Memory;
        expect(m.evidence?.map((e) => e.path)).toEqual([`src/part${i}.ts`]);
        ids.push(m.id);
      } else ids.push((await d.client.remember({ content: text, scope: 'project', project: root, stable: false })).id);
    }
    for (let i = 0; i < 10; i++) rmSync(join(root, 'src', `part${i}.ts`));
    await dream(d);
    const archived = await memories(d, root, true);
    const gone = ids.filter((id) => archived.find((m) => m.id === id)?.archiveReason?.includes(`src/part${ids.indexOf(id)}.ts`));
    expect(gone).toEqual(ids);
  }, 60_000);
});

const WORDS = ['billing', 'search', 'upload', 'login', 'export', 'invoice', 'avatar', 'report', 'webhook', 'session'];

function gitCommit(root: string): void {
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=t', '-c', 'commit.gpgsign=false', ...args], { cwd: root, stdio: 'ignore' });
  git('init', '-q');
  git('add', '-A');
  git('commit', '-q', '-m', 'init');
}
