import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { IngestSummary, Memory, ReextractResponse, SearchHit } from '../../src/api/memory.js';
import { daemonsPerTest, type TestDaemon, tempDirsPerTest } from '../helpers/daemon.js';
import { type Turn, writeClaudeTranscript } from '../helpers/transcripts.js';

const newDaemon = daemonsPerTest(afterEach);
const tmp = tempDirsPerTest(afterEach, 'ns-reextract-');

async function json<T>(d: TestDaemon, args: string[]): Promise<T> {
  const r = await d.cli([...args, '--json']);
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as T;
}

const FIRST: Turn[] = [
  { role: 'user', text: 'From now on, always run the linter before committing.', id: 'f1' },
  { role: 'user', text: 'The API server always runs on port 8080 in this project.', id: 'f2' },
  { role: 'user', text: 'We always deploy to fly.io from the main branch.', id: 'f3' },
  { role: 'user', text: 'Never edit the generated files under src/gen by hand.', id: 'f4' },
  { role: 'user', text: 'Look at the flamingo dashboard when the tests fail.', id: 'f5' },
];

describe('re-extraction', () => {
  it('ingest --reingest archives what only that file gave, keeps what the person touched, rewrites its episodes', async () => {
    const d = newDaemon();
    await d.start();
    const dir = tmp();
    mkdirSync(join(dir, '.git'));
    const a = join(dir, 'a.jsonl');
    const b = join(dir, 'b.jsonl');
    writeClaudeTranscript(a, FIRST, { sessionId: 'sa', cwd: dir, start: '2026-06-01T09:00:00Z' });
    writeClaudeTranscript(b, [{ role: 'user', text: 'The API server always runs on port 8080 in this project.', id: 'g1' }], {
      sessionId: 'sb',
      cwd: dir,
      start: '2026-06-02T09:00:00Z',
    });
    const first = await json<IngestSummary>(d, ['ingest', a]);
    await json<IngestSummary>(d, ['ingest', b]);
    const find = (list: Memory[], word: string) => list.find((m) => m.content.toLowerCase().includes(word));
    const linter = find(first.added, 'linter');
    const port = find(first.added, '8080');
    const deploy = find(first.added, 'fly.io');
    const generated = find(first.added, 'generated');
    expect([linter, port, deploy, generated].every((m) => m !== undefined)).toBe(true);
    if (!linter || !port || !deploy || !generated) return;
    await d.cli(['memories', 'pin', linter.id]);
    await d.cli(['memories', 'forget', deploy.id]);

    // The transcript changed since (a message rewritten): its episodes must follow.
    writeClaudeTranscript(a, [...FIRST.slice(0, 4), { role: 'user', text: 'Look at the pelican dashboard when the tests fail.', id: 'f5' }], {
      sessionId: 'sa',
      cwd: dir,
      start: '2026-06-01T09:00:00Z',
    });
    const again = await json<IngestSummary>(d, ['ingest', a, '--reingest']);
    expect(again.fromOffset).toBe(0);
    // What only that file gave and nobody touched is replaced: the rule extracted again, and the
    // line whose message was rewritten (its new wording comes in with the new extraction).
    const flamingo = find(first.added, 'flamingo');
    expect(again.replaced?.map((m) => m.id).sort()).toEqual([generated.id, ...(flamingo ? [flamingo.id] : [])].sort());
    expect(again.detached?.map((m) => m.id)).toEqual([port.id]);

    const old = await json<Memory>(d, ['memories', 'show', generated.id]);
    expect(old).toMatchObject({ archiveReason: 'replaced by re-extraction' });
    const active = await json<Memory[]>(d, ['memories', 'list', '--project', dir]);
    const contents = active.map((m) => m.content.toLowerCase());
    expect(contents.filter((c) => c.includes('generated'))).toHaveLength(1); // extracted again, once
    expect(contents.some((c) => c.includes('fly.io'))).toBe(false); // forgotten stays forgotten
    expect(active.find((m) => m.id === linter.id)).toMatchObject({ pinned: true });
    const portNow = active.find((m) => m.id === port.id);
    expect(portNow?.sources.map((s) => s.sessionId).sort()).toEqual(['sa', 'sb']);
    expect(portNow?.reinforcements).toBe(1);

    expect(await json<SearchHit[]>(d, ['search', 'flamingo'])).toEqual([]);
    expect(contents.some((c) => c.includes('flamingo'))).toBe(false);
    // The rewritten message leads; a neighbouring turn may follow (episodes also match by the turns around them).
    const pelican = await json<SearchHit[]>(d, ['search', 'pelican']);
    expect(pelican[0]?.messageId).toBe('f5');
    expect(pelican.filter((h) => h.text.toLowerCase().includes('pelican')).map((h) => h.messageId)).toEqual(['f5']);
  });

  it('memories reextract --project redoes every session of the project', async () => {
    const d = newDaemon();
    await d.start();
    const dir = tmp();
    mkdirSync(join(dir, '.git'));
    const a = join(dir, 'a.jsonl');
    const b = join(dir, 'b.jsonl');
    writeClaudeTranscript(a, FIRST.slice(0, 2), { sessionId: 'sa', cwd: dir, start: '2026-06-01T09:00:00Z' });
    writeClaudeTranscript(b, FIRST.slice(3, 4), { sessionId: 'sb', cwd: dir, start: '2026-06-02T09:00:00Z' });
    await json<IngestSummary>(d, ['ingest', a]);
    await json<IngestSummary>(d, ['ingest', b]);
    const before = await json<Memory[]>(d, ['memories', 'list', '--project', dir]);
    // Forgotten and brought back by the person: theirs now, left alone.
    const restored = before.find((m) => m.content.toLowerCase().includes('linter'));
    expect(restored).toBeDefined();
    await d.cli(['memories', 'forget', restored?.id ?? '']);
    await d.cli(['memories', 'restore', restored?.id ?? '']);
    const r = await json<ReextractResponse>(d, ['memories', 'reextract', '--project', join(dir, 'src', '..')]);
    expect(r.project).toBe(dir);
    expect(r.sessions.map((s) => s.sessionId)).toEqual(['sa', 'sb']);
    expect(r.skipped).toEqual([]);
    const replaced = r.sessions.flatMap((s) => s.replaced ?? []);
    expect(replaced.map((m) => m.id).sort()).toEqual(
      before
        .filter((m) => m !== restored)
        .map((m) => m.id)
        .sort(),
    );
    expect(replaced.length).toBeGreaterThan(0);
    const after = await json<Memory[]>(d, ['memories', 'list', '--project', dir]);
    expect(after.map((m) => m.content).sort()).toEqual(before.map((m) => m.content).sort());
    const text = await d.cli(['memories', 'reextract', '--project', dir]);
    expect(text.stdout).toMatch(/^re-extracted 2 session\(s\) of .*: \d+ added/);
  });
});
