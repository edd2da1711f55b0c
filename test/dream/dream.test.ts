import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { DreamReport } from '../../src/api/dream.js';
import type { Memory } from '../../src/api/memory.js';
import { fileFor } from '../../src/memory/store/memory-file.js';
import { bootId, readStat } from '../../src/sys/proc.js';
import { daemonsPerTest, until, type TestDaemon } from '../helpers/daemon.js';

const newDaemon = daemonsPerTest(afterEach);
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString();

async function seed(d: TestDaemon): Promise<{ project: string; byContent: (c: string) => Memory | undefined; all: () => Promise<Memory[]> }> {
  const project = mkdtempSync('/tmp/ns-dream-');
  dirs.push(project);
  const lines = [
    { content: 'The API server listens on port 8080.', type: 'fact', lastSeenAt: daysAgo(3), reinforcements: 1 },
    { content: 'the api server listens on port 8080', type: 'fact', lastSeenAt: daysAgo(2) },
    { content: 'API server: it listens on port 8080 in production.', type: 'fact', lastSeenAt: daysAgo(1) },
    { content: 'Postgres runs on port 5432 in the dev stack.', type: 'fact', createdAt: daysAgo(20), lastSeenAt: daysAgo(20) },
    { content: 'Postgres runs on port 5433 in the dev stack.', type: 'fact', createdAt: daysAgo(2), lastSeenAt: daysAgo(2) },
    { content: 'k12 = 84', type: 'fact' },
    { content: 'k13 = 91', type: 'fact' },
    { content: 'The CI runner is currently flaky.', type: 'fact', stable: false, importance: 0.3, lastSeenAt: daysAgo(200) },
    { content: 'Pinned but old.', type: 'note', stable: false, pinned: true, importance: 0.3, lastSeenAt: daysAgo(400) },
  ].map((l) => ({ stable: true, importance: 0.6, ...l, scope: 'project', project }));
  // Written as the store's own file: import and remember would already fold the repeats together.
  await d.stop();
  const memories = lines.map((l, i) => ({
    id: `m${String(i).padStart(12, '0')}`,
    createdAt: daysAgo(30),
    lastSeenAt: daysAgo(30),
    reinforcements: 0,
    sources: [],
    origin: 'import',
    pinned: false,
    ...l,
  }));
  const file = fileFor(d.paths.memoryDir, { scope: 'project', project });
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify({ version: 1, namespace: { scope: 'project', project }, memories }));
  await d.start();
  let cache: Memory[] = [];
  const all = async () => {
    cache = (await d.cli(['memories', 'export'])).stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Memory);
    return cache;
  };
  await all();
  return { project, byContent: (c) => cache.find((m) => m.content === c), all };
}

describe('nightshift dream', () => {
  it('dry run reports and changes nothing; a real run merges, supersedes, archives, and all of it is restorable', async () => {
    const d = newDaemon();
    await d.start();
    const { project, byContent, all } = await seed(d);
    const before = readFileSync(join(d.paths.memoryDir, 'projects', readdirSync(join(d.paths.memoryDir, 'projects'))[0] ?? ''), 'utf8');
    const dry = JSON.parse((await d.cli(['dream', '--dry-run', '--json'])).stdout) as DreamReport;
    expect(dry.dryRun).toBe(true);
    // The same statement twice (case aside) merges; so does "API server: it listens on port 8080 in
    // production", a restatement (the same content words but one, the same number and polarity).
    expect(dry.phases.consolidate.merged).toBe(2);
    expect(dry.phases.consolidate.superseded).toBe(1);
    expect(dry.archives.map((a) => a.id)).toEqual([byContent('The CI runner is currently flaky.')?.id]);
    const after = readFileSync(join(d.paths.memoryDir, 'projects', readdirSync(join(d.paths.memoryDir, 'projects'))[0] ?? ''), 'utf8');
    expect(after).toBe(before);

    const real = JSON.parse((await d.cli(['dream', '--json'])).stdout) as DreamReport;
    const oldest = byContent('The API server listens on port 8080.');
    expect(real.merges.map((m) => m.into)).toEqual([oldest?.id, oldest?.id]);
    expect(real.merges.flatMap((m) => m.merged).sort()).toEqual(
      [byContent('the api server listens on port 8080')?.id, byContent('API server: it listens on port 8080 in production.')?.id].sort(),
    );
    const merge = real.merges[0];
    expect(merge?.text).toBe('The API server listens on port 8080.'); // the oldest keeps its own words
    const memories = await all();
    const canonical = memories.find((m) => m.id === merge?.into);
    expect(canonical?.content).toBe('The API server listens on port 8080.');
    expect(canonical?.reinforcements).toBe(1 + 1 + 1); // its own, plus one for each statement merged into it
    // The merged statements are kept, marked, in their own words.
    const restated = memories.find((m) => m.content === 'API server: it listens on port 8080 in production.');
    expect(restated?.supersededBy).toBe(canonical?.id);
    const old5432 = byContent('Postgres runs on port 5432 in the dev stack.');
    const new5433 = byContent('Postgres runs on port 5433 in the dev stack.');
    const superseded = memories.find((m) => m.id === old5432?.id);
    expect(superseded?.supersededBy).toBe(new5433?.id);
    expect(superseded?.supersededAt).toBe(new5433?.createdAt);
    // Different keys are different facts: neither merged nor superseded.
    for (const c of ['k12 = 84', 'k13 = 91']) {
      const m = memories.find((x) => x.content === c);
      expect(m?.supersededBy).toBeUndefined();
      expect(m?.archivedAt).toBeUndefined();
    }
    expect(memories.find((m) => m.content === 'Pinned but old.')?.archivedAt).toBeUndefined();
    const recall = (await d.cli(['recall', '--project', project])).stdout;
    expect(recall).not.toContain('5432');
    expect(recall).toContain('5433');
    expect(recall).not.toContain('currently flaky');

    const log = JSON.parse((await d.cli(['dream', 'log', '--json'])).stdout) as { id: string; dryRun: boolean }[];
    expect(log.map((l) => l.id)).toEqual([real.id, dry.id]);
    expect((await d.cli(['dream', 'show', real.id])).stdout).toContain('supersede');
    expect((await d.cli(['dream', 'show', 'd20200101T000000000-0000'])).stderr).toContain('no dream');

    expect((await d.cli(['memories', 'restore', old5432?.id ?? ''])).code).toBe(0);
    expect((await d.cli(['recall', '--project', project])).stdout).toContain('5432');
    expect((await d.cli(['memories', 'restore', restated?.id ?? ''])).code).toBe(0);
    expect((await all()).find((m) => m.id === restated?.id)?.supersededBy).toBeUndefined();
  });

  it('masks secrets found again, and a lock held by a live process refuses a second dream while a stale one is taken over', async () => {
    const d = newDaemon();
    await d.start();
    await d.cli(['remember', '--user', 'Deploys use the staging bucket.']);
    await d.stop();
    // A memory written before redaction existed (or by hand): the dream scans again.
    const file = join(d.paths.memoryDir, 'user.json');
    const data = JSON.parse(readFileSync(file, 'utf8')) as { memories: Memory[] };
    const key = 'ghp_' + 'a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8';
    (data.memories[0] as Memory).content = `Deploys use the staging bucket with token ${key}.`;
    writeFileSync(file, JSON.stringify(data));
    // A stale lock (a dead holder) must not block the dream.
    writeFileSync(d.paths.dreamLock, JSON.stringify({ pid: 999_999, startTicks: 1, boot: bootId(), since: daysAgo(1), dream: 'dead' }));
    await d.start();
    const r = JSON.parse((await d.cli(['dream', '--json'])).stdout) as DreamReport;
    expect(r.phases.consolidate.secretsMasked).toBe(1);
    expect((await d.cli(['memories', 'export'])).stdout).not.toContain(key);
    // The progress stream (what a terminal shows): a line per phase, then the report.
    const phases: string[] = [];
    const streamed = await d.client.dreamWithProgress(true, (phase) => phases.push(phase));
    expect(phases).toEqual(['orient', 'gather', 'consolidate', 'verify', 'prune']);
    expect(streamed.dryRun).toBe(true);
    // A live holder (this test process) refuses.
    writeFileSync(
      d.paths.dreamLock,
      JSON.stringify({ pid: process.pid, startTicks: readStat(process.pid)?.startTicks, boot: bootId(), since: daysAgo(0), dream: 'other' }),
    );
    const refused = await d.cli(['dream']);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('already running');
  });

  it('runs on its schedule only when the gates pass, and status shows the next dream and the gates', async () => {
    const gated = newDaemon({ dream: { schedule: '* * * * * *', minHours: 0, minSessions: 5 } });
    await gated.start();
    const status = JSON.parse((await gated.cli(['status', '--json'])).stdout) as { dream: { next: string; wouldRun: boolean; gates: Record<string, boolean> } };
    expect(status.dream.next).toBeTruthy();
    expect(status.dream.wouldRun).toBe(false);
    expect(status.dream.gates.sessionsSince).toBe(false);
    expect((await gated.cli(['status'])).stdout).toContain('waiting for: sessionsSince');
    await new Promise((r) => setTimeout(r, 2200));
    expect(JSON.parse((await gated.cli(['dream', 'log', '--json'])).stdout)).toEqual([]);

    const open = newDaemon({ dream: { schedule: '* * * * * *', minHours: 0, minSessions: 0 } });
    await open.start();
    const log = await until(
      async () => {
        const l = JSON.parse((await open.cli(['dream', 'log', '--json'])).stdout) as { trigger: string }[];
        return l.length > 0 ? l : undefined;
      },
      10_000,
      200,
    );
    expect(log[0]?.trigger).toBe('schedule');
  });

  it('refuses an invalid schedule at start-up with a message naming it', async () => {
    const d = newDaemon({ dream: { schedule: 'every night' } });
    await expect(d.start()).rejects.toThrow(/not a valid cron expression/);
  });
});
