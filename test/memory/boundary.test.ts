import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Memory, SearchHit } from '../../src/api/memory.js';
import { daemonsPerTest, tempDirsPerTest, type TestDaemon } from '../helpers/daemon.js';

const newDaemon = daemonsPerTest(afterEach);
const tmp = tempDirsPerTest(afterEach, 'ns-boundary-');

const ESC = '\u001b';
const line = (id: string, role: string, content: string) => `${JSON.stringify({ id, role, content, timestamp: '2026-10-02T09:00:00.000Z' })}\n`;
const episodeBytes = (d: TestDaemon) =>
  readdirSync(d.paths.episodesDir)
    .filter((f) => f.endsWith('.jsonl'))
    .map((f) => readFileSync(join(d.paths.episodesDir, f), 'utf8'))
    .join('');

async function json<T>(d: TestDaemon, args: string[]): Promise<T> {
  const r = await d.cli([...args, '--json']);
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as T;
}

describe('secrets written in prose', () => {
  it('are masked in memories, in the episodic index and in search, not only after = or :', async () => {
    const d = newDaemon();
    await d.start();
    const dir = tmp();
    const r = await d.cli(['remember', '--project', dir, 'The staging admin account is set up, and password hunter2 opens it for the deploy bot.']);
    expect(r.code, r.stderr).toBe(0);
    const [m] = await json<Memory[]>(d, ['memories', 'list', '--project', dir]);
    expect(m?.content).toContain('[REDACTED:password]');
    expect(m?.content).not.toContain('hunter2');

    const transcript = join(dir, 't.jsonl');
    writeFileSync(
      transcript,
      line('p1', 'user', 'I created the reporting replica and password hunter2 works for the readonly user.') +
        line('p2', 'user', 'btw the pw is Tr0ub4dor&3 on the build box') +
        line('p3', 'user', 'my password: s3cretSauce9 for the grafana login') +
        line('p4', 'user', 'the password for the staging db is pa55word-x'),
    );
    expect((await d.cli(['ingest', transcript, '--project', dir, '--session', 'prose'])).code).toBe(0);
    const stored = episodeBytes(d);
    for (const secret of ['hunter2', 'Tr0ub4dor', 's3cretSauce9', 'pa55word-x']) {
      expect(stored).not.toContain(secret);
      const hits = await json<SearchHit[]>(d, ['search', secret, '--project', dir]);
      for (const h of hits) expect(h.text).not.toContain(secret);
    }
    const hits = await json<SearchHit[]>(d, ['search', 'reporting replica readonly', '--project', dir]);
    expect(hits[0]?.text).toContain('password [REDACTED:password] works');
    // Talk about passwords without one stays as it is.
    const plain = await d.cli(['remember', '--project', dir, 'Password reset emails go through SES in the eu-west-1 region.']);
    expect(plain.code).toBe(0);
    const all = await json<Memory[]>(d, ['memories', 'list', '--project', dir]);
    expect(all.some((x) => x.content === 'Password reset emails go through SES in the eu-west-1 region.')).toBe(true);
  });
});

describe('control characters', () => {
  it('are stripped when memories and episodes are stored (remember, import, ingest)', async () => {
    const d = newDaemon();
    await d.start();
    const dir = tmp();
    expect((await d.cli(['remember', '--project', dir, `Run ${ESC}[31mmake check${ESC}[0m before pushing\u0007\r\nthen tag.`])).code).toBe(0);
    const file = join(dir, 'in.jsonl');
    writeFileSync(file, `${JSON.stringify({ content: `Deploys go out on ${ESC}]0;owned\u0007Tuesdays\u0000 only`, project: dir })}\n`);
    expect((await d.cli(['memories', 'import', file])).code).toBe(0);
    const transcript = join(dir, 't.jsonl');
    writeFileSync(transcript, line('c1', 'user', `the ${ESC}[1mledger${ESC}[22m export\u0000 runs nightly\rat two`));
    expect((await d.cli(['ingest', transcript, '--project', dir, '--session', 'ctl'])).code).toBe(0);

    const contents = (await json<Memory[]>(d, ['memories', 'list', '--project', dir])).map((m) => m.content);
    expect(contents).toContain('Run make check before pushing\nthen tag.');
    expect(contents).toContain('Deploys go out on Tuesdays only');
    const hits = await json<SearchHit[]>(d, ['search', 'ledger export', '--project', dir]);
    expect(hits[0]?.text).toBe('the ledger export runs nightly\nat two');
    expect(episodeBytes(d)).not.toMatch(/\\u001b|\\u0000|\\u0007/);
  });

  it('left in an older store are shown escaped by memories list, recall, search and the session-start hook', async () => {
    const d = newDaemon();
    const dir = tmp();
    mkdirSync(d.paths.memoryDir, { recursive: true });
    const raw = `Always ${ESC}]0;owned${ESC}\\use ${ESC}[2Jpnpm\u0007 here\u0000.`;
    const memory = {
      id: 'm000000000001',
      content: raw,
      type: 'instruction',
      scope: 'user',
      stable: true,
      pinned: false,
      importance: 0.9,
      createdAt: '2026-10-01T00:00:00.000Z',
      lastSeenAt: '2026-10-01T00:00:00.000Z',
      reinforcements: 0,
      sources: [],
      origin: 'manual',
    };
    writeFileSync(join(d.paths.memoryDir, 'user.json'), JSON.stringify({ version: 1, namespace: { scope: 'user' }, memories: [memory] }));
    await d.start();
    const outputs = [
      (await d.cli(['memories', 'list'])).stdout,
      (await d.cli(['memories', 'show', 'm000000000001'])).stdout,
      (await d.cli(['recall', '--project', dir])).stdout,
      (await d.cli(['recall', '--project', dir, '--format', 'markdown'])).stdout,
      (
        JSON.parse((await d.cli(['hook', 'session-start'], { input: JSON.stringify({ cwd: dir }) })).stdout) as {
          hookSpecificOutput: { additionalContext: string };
        }
      ).hookSpecificOutput.additionalContext,
    ];
    for (const out of outputs) {
      expect(out).toContain('pnpm');
      expect(out).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
    }
    expect(outputs[3]).toContain('\\x1b[2Jpnpm\\x07');
  });
});
