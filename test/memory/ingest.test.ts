import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { IngestSummary, SessionRecord } from '../../src/api/memory.js';
import { daemonsPerTest, tempDirsPerTest } from '../helpers/daemon.js';
import { appendClaudeTranscript, writeClaudeTranscript } from '../helpers/transcripts.js';

const newDaemon = daemonsPerTest(afterEach);
const tmp = tempDirsPerTest(afterEach, 'ns-ingest-');

/** Two sessions of `dir`, a month apart: the first uses jest, the second switched to vitest. */
function jestThenVitest(dir: string): [string, string] {
  const [a, b] = [join(dir, 'a.jsonl'), join(dir, 'b.jsonl')];
  writeClaudeTranscript(a, [{ role: 'user', text: 'We use jest for the unit tests in this repo.' }], {
    sessionId: 'a',
    cwd: dir,
    start: '2026-08-01T09:00:00Z',
  });
  writeClaudeTranscript(b, [{ role: 'user', text: 'We switched from jest to vitest for the unit tests.' }], {
    sessionId: 'b',
    cwd: dir,
    start: '2026-09-01T09:00:00Z',
  });
  return [a, b];
}

describe('nightshift ingest', () => {
  it('a transcript replaced since its last ingest (the cursor mid-line) fails saying so, with the --reingest to use', async () => {
    const d = newDaemon();
    await d.start();
    const dir = tmp();
    const file = join(dir, 's-replaced.jsonl');
    const lines = (texts: string[]) => texts.map((t) => `${JSON.stringify({ role: 'user', content: t })}\n`).join('');
    writeFileSync(file, lines(['We always deploy on Tuesdays.']));
    expect((await d.cli(['ingest', file, '--format', 'messages'])).code).toBe(0);
    writeFileSync(file, lines(['A different first message, longer than the one before it was.', 'And another.']));
    const r = await d.cli(['ingest', file, '--format', 'messages']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`${file} changed since it was last ingested`);
    expect(r.stderr).toContain(`nightshift ingest --reingest ${file}`);
    expect(r.stderr).not.toContain('endOffset');
    expect((await d.cli(['ingest', '--reingest', file, '--format', 'messages'])).code).toBe(0);
  });

  it('extracts memories with transcript time, re-ingests nothing when unchanged, and only the appended part later', async () => {
    const d = newDaemon();
    await d.start();
    const dir = tmp();
    const project = join(dir, 'billing');
    mkdirSync(join(project, '.git'), { recursive: true });
    const file = join(dir, 's1.jsonl');
    writeClaudeTranscript(
      file,
      [
        { role: 'user', text: 'From now on, always run the linter before committing.' },
        { role: 'assistant', text: 'Understood, I will run the linter before every commit.' },
        { role: 'user', text: 'The API server always runs on port 8080 in this project.' },
        { role: 'user', text: 'Fix the failing test in src/invoice.ts please.' },
      ],
      { sessionId: 'sess-1', cwd: join(project, 'src'), start: '2026-09-01T10:00:00.000Z' },
    );
    const r = await d.cli(['ingest', file, '--json']);
    expect(r.code, r.stderr).toBe(0);
    const s = JSON.parse(r.stdout) as IngestSummary;
    expect(s.unchanged).toBe(false);
    expect(s.project).toBe(project); // the git root of the session's cwd
    expect(s.sessionId).toBe('sess-1');
    expect(s.extractor).toBe('heuristic');
    const contents = s.added.map((m) => m.content.toLowerCase());
    expect(contents.some((c) => c.includes('linter'))).toBe(true);
    expect(contents.some((c) => c.includes('8080'))).toBe(true);
    expect(contents.some((c) => c.includes('failing test'))).toBe(false); // a one-off request
    for (const m of s.added) expect(m.createdAt.startsWith('2026-09-01T10:0')).toBe(true);

    const again = JSON.parse((await d.cli(['ingest', file, '--json'])).stdout) as IngestSummary;
    expect(again.unchanged).toBe(true);
    expect(again.added).toHaveLength(0);

    appendClaudeTranscript(file, [{ role: 'user', text: 'From now on, always run the linter before committing.', id: 'later-1', at: 90 }], {
      sessionId: 'sess-1',
      cwd: project,
      start: '2026-09-01T10:00:00.000Z',
    });
    const third = JSON.parse((await d.cli(['ingest', file, '--json'])).stdout) as IngestSummary;
    expect(third.fromOffset).toBe(s.toOffset);
    expect(third.messages).toBe(1);
    expect(third.added).toHaveLength(0);
    expect(third.reinforced).toHaveLength(1);
    expect(third.reinforced[0]?.reinforcements).toBe(1);
    expect(third.reinforced[0]?.lastSeenAt).toBe('2026-09-01T11:30:00.000Z');

    const sessions = JSON.parse((await d.cli(['sessions', '--json'])).stdout) as SessionRecord[];
    expect(sessions).toHaveLength(1);
    expect(sessions[0]).toMatchObject({ sessionId: 'sess-1', project, state: 'ingested', format: 'claude-code' });
    expect((await d.cli(['sessions'])).stdout).toContain('sess-1');
  });

  it('counts malformed lines without failing, and names a missing file', async () => {
    const d = newDaemon();
    await d.start();
    const dir = tmp();
    const file = join(dir, 'broken.jsonl');
    writeClaudeTranscript(file, [{ role: 'user', text: 'Always answer in English, please.' }], { sessionId: 'b', cwd: dir });
    appendFileSync(file, '{not json\n\u0000garbage\n');
    appendClaudeTranscript(file, [{ role: 'user', text: 'We always deploy to fly.io from the main branch.', id: 'x2' }], { sessionId: 'b', cwd: dir });
    const s = JSON.parse((await d.cli(['ingest', file, '--json'])).stdout) as IngestSummary;
    expect(s.malformedLines).toBe(2);
    // Both statements, around the broken lines, in the person's words (the closing "please" is filler).
    expect(s.added.map((m) => m.content).sort()).toEqual(['Always answer in English.', 'We always deploy to fly.io from the main branch.']);
    const missing = await d.cli(['ingest', join(dir, 'nope.jsonl')]);
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).toContain('not found');
    expect((await d.client.status()).pid).toBeGreaterThan(0);
  });

  it('an explicit change supersedes the older memory, which is kept but never recalled', async () => {
    const d = newDaemon();
    await d.start();
    const dir = tmp();
    const [a, b] = jestThenVitest(dir);
    const first = JSON.parse((await d.cli(['ingest', a, '--json'])).stdout) as IngestSummary;
    expect(first.added).toHaveLength(1);
    const second = JSON.parse((await d.cli(['ingest', b, '--json'])).stdout) as IngestSummary;
    expect(second.superseded.map((m) => m.id)).toEqual([first.added[0]?.id]);
    expect(second.superseded[0]?.supersededBy).toBe(second.added[0]?.id);
    const recall = await d.cli(['recall', '--project', dir]);
    expect(recall.stdout).toContain('vitest');
    expect(recall.stdout).not.toContain('We use jest');
    const archived = await d.cli(['memories', 'list', '--project', dir, '--archived', '--json']);
    expect(archived.stdout).toContain('We use jest');
  });

  it('ingests several files in one call, oldest first, each its own session; one that fails does not stop the rest', async () => {
    const d = newDaemon();
    await d.start();
    const dir = tmp();
    const [a, b] = jestThenVitest(dir);
    const missing = join(dir, 'gone.jsonl');
    // Given newest first, as a glob of random names may list them.
    const r = await d.cli(['ingest', missing, b, a, '--json']);
    expect(r.code).toBe(1);
    const out = JSON.parse(r.stdout) as (IngestSummary | { path: string; error: { code: string; message: string } })[];
    expect(out.map((x) => ('error' in x ? x.error.code : x.sessionId))).toEqual(['a', 'b', 'not_found']);
    expect(out[2]).toMatchObject({ path: missing, error: { message: expect.stringContaining('not found') } });
    // The second session's change retired the first's statement, as two calls would have.
    expect((await d.cli(['recall', '--project', dir])).stdout).not.toContain('We use jest');

    const again = await d.cli(['ingest', a, b]);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout.match(/unchanged since the last ingest/g)).toHaveLength(2);
    const one = await d.cli(['ingest', a, b, '--session', 'x']);
    expect(one.code).toBe(2);
    expect(one.stderr).toContain('--session names one session');
  });

  it('never stores a secret: masked in memories and in the episodic index', async () => {
    const d = newDaemon();
    await d.start();
    const dir = tmp();
    const file = join(dir, 'secret.jsonl');
    const key = 'sk-ant-api03-' + 'A1b2C3d4E5f6G7h8I9j0'.repeat(4) + 'AA';
    writeClaudeTranscript(
      file,
      [
        { role: 'user', text: `Remember that the staging deploy uses the key ${key} for the API.` },
        { role: 'user', text: `password=${'hunter2-Secret!9'}` },
      ],
      { sessionId: 'sec', cwd: dir },
    );
    const r = await d.cli(['ingest', file, '--json']);
    expect(r.stdout).not.toContain(key);
    expect(r.stdout).not.toContain('hunter2');
    const all = await d.cli(['memories', 'export']);
    expect(all.stdout).not.toContain(key);
    const search = await d.cli(['search', 'staging', 'deploy', '--json']);
    expect(search.stdout).toContain('REDACTED');
    expect(search.stdout).not.toContain(key);
    expect(d.log).not.toContain(key);
  });

  it('parses Codex and plain message transcripts', async () => {
    const d = newDaemon();
    await d.start();
    const dir = tmp();
    const plain = join(dir, 'chat.json');
    writeFileSync(
      plain,
      JSON.stringify([
        { role: 'user', content: 'I always want short answers without bullet lists, whatever the project.', id: 'u1', timestamp: '2026-07-01T08:00:00Z' },
        { role: 'assistant', content: 'Noted.', id: 'a1' },
      ]),
    );
    const s = JSON.parse((await d.cli(['ingest', plain, '--project', dir, '--json'])).stdout) as IngestSummary;
    expect(s.format).toBe('messages');
    expect(s.added.map((m) => m.content).join(' ')).toContain('short answers');
    expect(s.added.find((m) => m.content.includes('short answers'))?.scope).toBe('user');
    const codex = await d.cli(['ingest', join(import.meta.dirname, '../fakes/transcripts/codex.jsonl'), '--json']);
    expect(codex.code, codex.stderr).toBe(0);
    expect((JSON.parse(codex.stdout) as IngestSummary).format).toBe('codex');
  });
});
