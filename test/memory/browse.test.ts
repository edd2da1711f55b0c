/**
 * What the dashboard browses, through the CLI (and the typed client where the CLI prints no JSON of
 * it) against a real daemon: list filters and pages with the total, projects, edit, history,
 * provenance, session search, the rendered recall block and a dream report's memories.
 */
import { mkdirSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { IngestSummary, Memory, SessionRecord } from '../../src/api/memory.js';
import type { MemoryHistoryResponse, MemorySourcesResponse, ProjectsResponse } from '../../src/api/memory-browse.js';
import { daemonsPerTest, type TestDaemon, tempDirsPerTest } from '../helpers/daemon.js';
import { type Turn, writeClaudeTranscript } from '../helpers/transcripts.js';

const newDaemon = daemonsPerTest(afterEach);
const tmp = tempDirsPerTest(afterEach, 'ns-browse-');

async function json<T>(d: TestDaemon, args: string[], input?: string): Promise<T> {
  const r = await d.cli([...args, '--json'], input === undefined ? {} : { input });
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as T;
}

function project(): string {
  const dir = tmp();
  mkdirSync(join(dir, '.git'));
  return dir;
}

const TURNS: Turn[] = [
  { role: 'user', text: 'Can you look at the failing build?', id: 'u0' },
  { role: 'assistant', text: 'Sure, looking at the build output now.', id: 'a0' },
  { role: 'user', text: 'The acme-api repo always uses pnpm as its package manager.', id: 'u1' },
  { role: 'assistant', text: 'Noted, I will use pnpm for installs.', id: 'a1' },
  { role: 'user', text: 'Never edit the generated files under src/gen by hand.', id: 'u2' },
  { role: 'assistant', text: 'Understood, I will regenerate them instead.', id: 'a2' },
];

describe('memories list: filters and pages', () => {
  it('answers the total, filters by type, pinned and query (BM25, best first), and pages with offset and limit', async () => {
    const d = newDaemon();
    await d.start();
    const dir = project();
    const ids: string[] = [];
    const texts = [
      'The walrus dashboard shows the nightly builds.',
      'Ask Priya about the zebra billing exports.',
      'Invoices are archived by the walrus cron job.',
      'The zebra cluster runs in the Frankfurt region.',
      'Our walrus mascot appears on the login page.',
      'Zebra stripes are the theme of the release notes.',
      'Walrus logs rotate every Sunday night.',
      'The zebra feature flag hides the beta editor.',
      'Design reviews happen in the walrus channel.',
      'The zebra webhook retries three times.',
      'Keep the walrus fixtures small and readable.',
      'A zebra crossing icon marks pedestrian routes.',
    ];
    for (const [i, text] of texts.entries()) {
      const r = await d.cli(['remember', '--project', dir, '--type', i % 3 === 0 ? 'fact' : 'note', text]);
      expect(r.code, r.stderr).toBe(0);
      ids.push(r.stdout.trim());
    }
    await d.cli(['memories', 'pin', ids[4] as string]);
    // An old client asks with no parameters: the same list as before, plus the total.
    const all = await d.client.call('listMemories', { query: { project: dir } });
    expect(all.memories.map((m) => m.id)).toEqual(ids);
    expect(all.total).toBe(12);

    const page = await d.client.call('listMemories', { query: { project: dir, offset: 5, limit: 4 } });
    expect(page.memories.map((m) => m.id)).toEqual(ids.slice(5, 9));
    expect(page.total).toBe(12);
    expect((await json<Memory[]>(d, ['memories', 'list', '--project', dir, '--type', 'fact'])).map((m) => m.id)).toEqual([ids[0], ids[3], ids[6], ids[9]]);
    expect((await json<Memory[]>(d, ['memories', 'list', '--project', dir, '--pinned'])).map((m) => m.id)).toEqual([ids[4]]);

    const zebra = await d.client.call('listMemories', { query: { project: dir, q: 'zebra', limit: 2 } });
    expect(zebra.total).toBe(6);
    expect(zebra.memories).toHaveLength(2);
    expect(zebra.memories.every((m) => m.content.includes('zebra'))).toBe(true);
    const human = await d.cli(['memories', 'list', '--project', dir, '-q', 'zebra', '--limit', '2']);
    expect(human.stdout).toContain('1–2 of 6');
    // Archived ones are searched by their words.
    await d.cli(['memories', 'forget', ids[1] as string]);
    expect((await json<Memory[]>(d, ['memories', 'list', '--project', dir, '--archived', '-q', 'zebra'])).map((m) => m.id)).toEqual([ids[1]]);
    const bad = await d.cli(['memories', 'list', '--limit', 'many']);
    expect(bad.code).toBe(2);
  });

  it('memories projects: each project with its counts, sessions and last activity', async () => {
    const d = newDaemon();
    await d.start();
    const [a, b] = [project(), project()];
    await d.cli(['remember', '--project', a, 'The staging database is on port 5433.']);
    const gone = (await d.cli(['remember', '--project', a, 'Deploys go out on tuesdays.'])).stdout.trim();
    await d.cli(['memories', 'forget', gone]);
    await d.cli(['remember', '--user', 'I prefer small commits.']);
    writeClaudeTranscript(join(b, 's.jsonl'), TURNS, { sessionId: 'sess-b', cwd: b, start: '2026-05-01T09:00:00Z' });
    await json<IngestSummary>(d, ['ingest', join(b, 's.jsonl')]);
    const r = await json<ProjectsResponse>(d, ['memories', 'projects']);
    expect(r.user.active).toBe(1);
    const pa = r.projects.find((p) => p.project === a);
    const pb = r.projects.find((p) => p.project === b);
    expect(pa).toMatchObject({ active: 1, archived: 1, sessions: 0 });
    expect(pb?.sessions).toBe(1);
    expect(pb?.active).toBeGreaterThan(0);
  });
});

describe('memories edit', () => {
  it('changes the text (secrets masked), keeps the old text in the history, reads stdin with -', async () => {
    const d = newDaemon();
    await d.start();
    const dir = project();
    const id = (await d.cli(['remember', '--project', dir, 'The acme-api repo uses pnpm as its package manager.'])).stdout.trim();
    const edited = await json<Memory>(d, [
      'memories',
      'edit',
      id,
      'The acme-api repo uses yarn as its package manager; token=ghp_abcdefghijklmnopqrstuvwxyz0123456789',
    ]);
    expect(edited.content).toContain('yarn');
    expect(edited.content).not.toContain('ghp_abcdefghijklmnopqrstuvwxyz0123456789');
    expect(edited.editedAt).toBeDefined();
    expect(edited.slot?.value).toContain('yarn');
    const again = await json<Memory>(d, ['memories', 'edit', id, '-'], 'The acme-api repo uses yarn 4 as its package manager.\n');
    expect(again.content).toBe('The acme-api repo uses yarn 4 as its package manager.');
    const h = await json<MemoryHistoryResponse>(d, ['memories', 'history', id]);
    const edits = h.events.filter((e) => e.kind === 'edited');
    expect(edits.map((e) => e.from)).toEqual(['The acme-api repo uses pnpm as its package manager.', edited.content]);
    expect(h.events[0]?.kind).toBe('created');
    expect((await d.cli(['memories', 'edit', id, 'sk-ant-api03-' + 'x'.repeat(90)])).code).toBe(2);
    expect((await d.cli(['memories', 'edit', 'm000000000000', 'text'])).code).toBe(1);
  });

  it('a re-extraction keeps the edit and does not bring the edited-away text back', async () => {
    const d = newDaemon({ memory: { extractor: 'heuristic' } });
    await d.start();
    const dir = project();
    const file = join(dir, 's.jsonl');
    writeClaudeTranscript(file, TURNS, { sessionId: 'sess-e', cwd: dir, start: '2026-05-01T09:00:00Z' });
    const first = await json<IngestSummary>(d, ['ingest', file]);
    const pnpm = first.added.find((m) => m.content.includes('pnpm'));
    expect(pnpm).toBeDefined();
    if (!pnpm) return;
    await json<Memory>(d, ['memories', 'edit', pnpm.id, 'The acme-api repo uses bun as its package manager.']);
    const re = await json<IngestSummary>(d, ['ingest', '--reingest', file]);
    expect(re.replaced?.map((m) => m.id)).not.toContain(pnpm.id);
    expect(re.added.some((m) => m.content.includes('pnpm'))).toBe(false);
    const now = await json<Memory>(d, ['memories', 'show', pnpm.id]);
    expect(now.content).toBe('The acme-api repo uses bun as its package manager.');
    expect(now.supersededBy).toBeUndefined();
    expect(now.archivedAt).toBeUndefined();
  });
});

describe('memories history', () => {
  it('tells created, reinforced, pinned, forgotten, restored, and supersession both ways', async () => {
    const d = newDaemon({ memory: { extractor: 'heuristic' } });
    await d.start();
    const dir = project();
    writeClaudeTranscript(join(dir, 'a.jsonl'), [{ role: 'user', text: 'The acme-api repo always uses pnpm as its package manager.', id: 'p1' }], {
      sessionId: 'sess-1',
      cwd: dir,
      start: '2026-05-01T09:00:00Z',
    });
    writeClaudeTranscript(join(dir, 'b.jsonl'), [{ role: 'user', text: 'Package manager for acme-api: always pnpm.', id: 'p2' }], {
      sessionId: 'sess-2',
      cwd: dir,
      start: '2026-05-02T09:00:00Z',
    });
    writeClaudeTranscript(join(dir, 'c.jsonl'), [{ role: 'user', text: 'The acme-api repo always uses yarn as its package manager.', id: 'p3' }], {
      sessionId: 'sess-3',
      cwd: dir,
      start: '2026-05-03T09:00:00Z',
    });
    const a = await json<IngestSummary>(d, ['ingest', join(dir, 'a.jsonl')]);
    await json<IngestSummary>(d, ['ingest', join(dir, 'b.jsonl')]);
    const c = await json<IngestSummary>(d, ['ingest', join(dir, 'c.jsonl')]);
    const old = a.added[0] as Memory;
    const yarn = c.added[0] as Memory;
    expect(c.superseded.map((m) => m.id)).toEqual([old.id]);
    await d.cli(['memories', 'pin', yarn.id]);
    const before = await json<MemoryHistoryResponse>(d, ['memories', 'history', old.id]);
    expect(before.events.map((e) => e.kind)).toEqual(['created', 'reinforced', 'superseded']);
    expect(before.events[2]).toMatchObject({ memoryId: yarn.id, text: yarn.content, at: '2026-05-03T09:00:00.000Z' });
    const y = await json<MemoryHistoryResponse>(d, ['memories', 'history', yarn.id]);
    expect(y.events.map((e) => e.kind)).toEqual(['created', 'supersedes', 'pinned']);
    expect(y.events[1]).toMatchObject({ memoryId: old.id, text: old.content });
    await d.cli(['memories', 'restore', old.id]);
    await d.cli(['memories', 'forget', old.id]);

    const h = await json<MemoryHistoryResponse>(d, ['memories', 'history', old.id]);
    // Restoring drops the supersession link from the record: the restore says what it was.
    expect(h.events.map((e) => e.kind)).toEqual(['created', 'reinforced', 'restored', 'forgotten']);
    expect(h.events[0]).toMatchObject({ sessionId: 'sess-1', origin: 'heuristic', at: '2026-05-01T09:00:00.000Z' });
    expect(h.events[1]).toMatchObject({ sessionId: 'sess-2', at: '2026-05-02T09:00:00.000Z' });
    expect(h.events[2]?.from).toBe(`superseded by ${yarn.id}`);
    const text = await d.cli(['memories', 'history', old.id]);
    expect(text.stdout).toMatch(/restored\s+\(was superseded by m[0-9a-f]{12}\)/);
  });
});

describe('memories sources', () => {
  it('opens each source message in place: line, byte offset, text and its neighbours; a moved transcript is an error value', async () => {
    const d = newDaemon({ memory: { extractor: 'heuristic' } });
    await d.start();
    const dir = project();
    const file = join(dir, 's.jsonl');
    writeClaudeTranscript(file, TURNS, { sessionId: 'sess-s', cwd: dir, start: '2026-05-01T09:00:00Z' });
    const s = await json<IngestSummary>(d, ['ingest', file]);
    const pnpm = s.added.find((m) => m.content.includes('pnpm')) as Memory;
    const r = await json<MemorySourcesResponse>(d, ['memories', 'sources', pnpm.id]);
    expect(r.sources).toHaveLength(1);
    const src = r.sources[0];
    expect(src?.session?.path).toBe(file);
    expect(src?.error).toBeUndefined();
    const msg = src?.messages[0];
    expect(msg).toMatchObject({ id: 'u1', found: true, role: 'user', line: 3, text: 'The acme-api repo always uses pnpm as its package manager.' });
    expect(msg?.before.map((n) => n.id)).toEqual(['u0', 'a0']);
    expect(msg?.after.map((n) => n.id)).toEqual(['a1', 'u2']);
    const { readFileSync } = await import('node:fs');
    const bytes = readFileSync(file);
    expect(
      bytes
        .subarray(msg?.offset ?? 0)
        .toString('utf8')
        .startsWith('{') &&
        bytes
          .subarray(msg?.offset ?? 0, (msg?.offset ?? 0) + 400)
          .toString()
          .includes('"u1"'),
    ).toBe(true);
    const shown = await d.cli(['memories', 'show', pnpm.id, '--sources']);
    expect(shown.stdout).toContain('line 3');
    // What one session gave: `session` filters by source (a manual memory of the project has none).
    await d.cli(['remember', '--project', dir, 'Release notes live in docs/releases.']);
    const fromSession = await json<Memory[]>(d, ['memories', 'list', '--project', dir, '--session', 'sess-s']);
    expect(fromSession.map((m) => m.id).sort()).toEqual(s.added.map((m) => m.id).sort());
    expect((await d.client.call('listMemories', { query: { all: '1', session: 'sess-none' } })).total).toBe(0);

    renameSync(file, `${file}.moved`);
    const moved = await json<MemorySourcesResponse>(d, ['memories', 'sources', pnpm.id]);
    expect(moved.sources[0]?.error?.code).toBe('transcript_missing');
    expect(moved.sources[0]?.messages[0]).toMatchObject({ id: 'u1', found: true, text: 'The acme-api repo always uses pnpm as its package manager.' });
    expect(moved.sources[0]?.messages[0]?.line).toBeUndefined();

    const manual = (await d.cli(['remember', '--project', dir, 'Written by hand.'])).stdout.trim();
    expect((await json<MemorySourcesResponse>(d, ['memories', 'sources', manual])).sources).toEqual([]);
  });
});

describe('sessions: filters, pages, search', () => {
  it('lists a project’s sessions in pages with the total, and finds sessions by what was said', async () => {
    const d = newDaemon({ memory: { extractor: 'heuristic' } });
    await d.start();
    const [a, b] = [project(), project()];
    for (let i = 0; i < 3; i++) {
      writeClaudeTranscript(join(a, `${i}.jsonl`), [{ role: 'user', text: `Session ${i} talks about the ${i === 1 ? 'flamingo' : 'pelican'} migration.` }], {
        sessionId: `sa-${i}`,
        cwd: a,
        start: `2026-05-0${i + 1}T09:00:00Z`,
      });
      await json<IngestSummary>(d, ['ingest', join(a, `${i}.jsonl`)]);
    }
    writeClaudeTranscript(join(b, 'x.jsonl'), [{ role: 'user', text: 'The flamingo question again.' }], { sessionId: 'sb-0', cwd: b });
    await json<IngestSummary>(d, ['ingest', join(b, 'x.jsonl')]);

    const all = await d.client.call('sessions', {});
    expect(all.total).toBe(4);
    const page = await d.client.call('sessions', { query: { project: a, order: 'recent', limit: 2 } });
    expect(page.total).toBe(3);
    expect(page.sessions.map((s) => s.sessionId)).toEqual(['sa-2', 'sa-1']);
    const found = await d.client.call('sessions', { query: { q: 'flamingo' } });
    expect(found.sessions.map((s) => s.sessionId).sort()).toEqual(['sa-1', 'sb-0']);
    expect(found.matches?.[0]?.hits[0]?.text).toContain('flamingo');
    const inA = await json<{ sessions: SessionRecord[]; total: number }>(d, ['sessions', 'list', '--project', a, '-q', 'flamingo']);
    expect(inA.sessions.map((s) => s.sessionId)).toEqual(['sa-1']);
    expect(inA.total).toBe(1);
  });
});

describe('recall preview and dream reports', () => {
  it('recall with render answers exactly the block recall --format markdown prints', async () => {
    const d = newDaemon();
    await d.start();
    const dir = project();
    await d.cli(['remember', '--project', dir, '--stable', '--type', 'instruction', 'Always run the linter before committing.']);
    await d.cli(['remember', '--user', '--type', 'preference', 'I prefer small commits.']);
    const r = await d.client.call('recall', { body: { project: dir, render: true } });
    const printed = await d.cli(['recall', '--project', dir, '--format', 'markdown']);
    expect(r.rendered).toBeDefined();
    expect(`${r.rendered}\n`).toBe(printed.stdout);
    expect(r.items.every((i) => i.tokens > 0)).toBe(true);
    expect((await d.client.call('recall', { body: { project: dir } })).rendered).toBeUndefined();
  });

  it('dream show --expand joins the text now of every memory a report names', async () => {
    const d = newDaemon({ dream: { schedule: false } });
    await d.start();
    const dir = project();
    const line = (content: string, lastSeenAt: string, importance: number) =>
      JSON.stringify({ content, project: dir, scope: 'project', type: 'note', importance, createdAt: lastSeenAt, lastSeenAt });
    const r = await d.cli(['memories', 'import', '-'], { input: `${line('The old wiki lives on confluence.', '2024-01-01T00:00:00Z', 0.3)}\n` });
    expect(r.code, r.stderr).toBe(0);
    const report = await json<{ id: string; archives: { id: string }[] }>(d, ['dream']);
    const archived = report.archives[0]?.id as string;
    expect(archived).toMatch(/^m/);
    const x = await json<{ report: { id: string }; memories: Record<string, { exists: boolean; content?: string; state?: string }> }>(d, [
      'dream',
      'show',
      report.id,
      '--expand',
    ]);
    expect(x.memories[archived]).toMatchObject({ exists: true, content: 'The old wiki lives on confluence.', state: 'archived' });
    const h = await json<MemoryHistoryResponse>(d, ['memories', 'history', archived]);
    expect(h.events.find((e) => e.kind === 'archived')?.dreamId).toBe(report.id);
  });
});
