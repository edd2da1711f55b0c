import { appendFileSync, existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { SearchHit } from '../../src/api/memory.js';
import { daemonsPerTest, tempDirsPerTest, type TestDaemon } from '../helpers/daemon.js';

const newDaemon = daemonsPerTest(afterEach);
const tmp = tempDirsPerTest(afterEach, 'ns-episodes-');

const line = (id: string, role: string, content: string) => `${JSON.stringify({ id, role, content, timestamp: '2026-10-01T09:00:00.000Z' })}\n`;

async function search(d: TestDaemon, query: string, project: string): Promise<SearchHit[]> {
  const r = await d.cli(['search', query, '--project', project, '--json']);
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as SearchHit[];
}

function episodeFile(d: TestDaemon): string {
  const files = readdirSync(d.paths.episodesDir).filter((f) => f.endsWith('.jsonl'));
  expect(files).toHaveLength(1);
  return join(d.paths.episodesDir, files[0] as string);
}

describe('the episodic index on disk', () => {
  it('cuts a torn last line before appending, and a replayed ingest writes no line twice', async () => {
    const d = newDaemon();
    await d.start();
    const dir = tmp();
    const transcript = join(dir, 's.jsonl');
    writeFileSync(
      transcript,
      line('m1', 'user', 'the flaky checkout test needs a retry budget') + line('m2', 'assistant', 'I added a retry budget of three to the checkout test'),
    );
    expect((await d.cli(['ingest', transcript, '--project', dir, '--session', 's1', '--json'])).code).toBe(0);
    await d.stop();

    // A kill -9 in the middle of the next append: half a line, no newline, and the cursor never moved.
    const file = episodeFile(d);
    appendFileSync(file, '{"sessionId":"s1","messageId":"m3","project":');
    rmSync(d.paths.sessionsFile);
    appendFileSync(
      transcript,
      line('m3', 'user', 'the invoice renderer drops the currency symbol') + line('m4', 'assistant', 'Fixed the currency symbol in the invoice renderer'),
    );

    await d.start();
    const again = await d.cli(['ingest', transcript, '--project', dir, '--session', 's1', '--json']);
    expect(again.code, again.stderr).toBe(0);
    const lines = readFileSync(file, 'utf8').split('\n');
    expect(lines.pop()).toBe(''); // ends with a newline
    const ids = lines.map((l) => (JSON.parse(l) as { messageId: string }).messageId); // every line whole
    expect(ids).toEqual(['m1', 'm2', 'm3', 'm4']);

    // Each message once; the best two are the ones that say it (a neighbour scores a little too).
    for (const [query, ids] of [
      ['currency symbol invoice', ['m3', 'm4']],
      ['retry budget', ['m1', 'm2']],
    ] as const) {
      const hits = (await search(d, query, dir)).map((h) => h.messageId);
      expect(new Set(hits).size).toBe(hits.length);
      expect(hits.slice(0, 2).sort()).toEqual(ids);
    }
    expect((await d.client.status()).memory?.episodes).toBe(4);
  });

  it('rebuilds an index that is missing or garbled from the session files', async () => {
    const d = newDaemon();
    await d.start();
    const dir = tmp();
    const transcript = join(dir, 's.jsonl');
    writeFileSync(transcript, line('a1', 'user', 'postgres runs in the compose file on port 5544') + line('a2', 'assistant', 'noted the compose port'));
    expect((await d.cli(['ingest', transcript, '--project', dir, '--session', 's2'])).code).toBe(0);
    expect((await search(d, 'postgres compose', dir))[0]?.messageId).toBe('a1');
    await d.stop();

    const index = join(d.paths.episodesDir, 'index');
    const project = readdirSync(index).find((f) => f.startsWith('p-')) as string;
    const segment = readdirSync(join(index, project)).find((f) => f.endsWith('.idx')) as string;
    writeFileSync(join(index, project, segment), 'garbage');
    await d.start();
    expect((await search(d, 'postgres compose', dir))[0]?.messageId).toBe('a1');
    await d.stop();

    // A home written before the index existed: only the session files.
    rmSync(index, { recursive: true });
    await d.start();
    expect((await search(d, 'postgres compose', dir))[0]?.messageId).toBe('a1');
    expect((await d.client.status()).memory?.episodes).toBe(2);
    await d.stop(); // the catalog is saved at the latest when the daemon stops
    expect(existsSync(join(index, 'catalog.json'))).toBe(true);
  });

  it('finds words by their stem, and text in scripts without spaces by its character pairs', async () => {
    const d = newDaemon();
    await d.start();
    const dir = tmp();
    const transcript = join(dir, 's.jsonl');
    writeFileSync(
      transcript,
      line('e1', 'user', 'we deployed the billing workers twice yesterday') +
        line('e2', 'user', '数据库连接池的大小改成了二十') +
        line('e3', 'user', 'デプロイは金曜日に行わないでください') +
        line('e4', 'user', 'การเชื่อมต่อฐานข้อมูลล้มเหลว') +
        line('e5', 'user', 'Die Datenbankverbindung schlägt fehl 🚀 ‮ zero​width') +
        line('e6', 'assistant', 'ok'),
    );
    const r = await d.cli(['ingest', transcript, '--project', dir, '--session', 'i18n', '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect((await search(d, 'deploying billing worker', dir))[0]?.messageId).toBe('e1');
    expect((await search(d, '连接池', dir))[0]?.messageId).toBe('e2');
    expect((await search(d, '金曜日', dir))[0]?.messageId).toBe('e3');
    expect((await search(d, 'ฐานข้อมูล', dir))[0]?.messageId).toBe('e4');
    expect((await search(d, 'datenbankverbindung schlägt', dir))[0]?.messageId).toBe('e5');
    expect((await d.client.status()).pid).toBeGreaterThan(0);
  });

  it('indexes a run of ingests as one segment once the appends pause, and a search needs no wait', async () => {
    const d = newDaemon();
    await d.start();
    const dir = tmp();
    const files = ['billing workers retry twice', 'the invoice renderer drops the currency', 'staging runs postgres on port 5544'].map((said, i) => {
      const file = join(dir, `s${i}.jsonl`);
      writeFileSync(file, line(`m${i}`, 'user', said) + line(`r${i}`, 'assistant', 'noted'));
      return file;
    });
    const segments = () => {
      const index = join(d.paths.episodesDir, 'index');
      const project = readdirSync(index).find((f) => f.startsWith('p-'));
      return project === undefined ? [] : readdirSync(join(index, project)).filter((f) => f.endsWith('.idx'));
    };
    expect((await d.cli(['ingest', ...files, '--project', dir])).code).toBe(0);
    // Searchable at once: a search indexes what was appended first. The run is one segment (or a
    // few, were the machine so slow that the appends paused between files), not one per session.
    expect((await search(d, 'currency renderer', dir))[0]?.messageId).toBe('m1');
    const afterRun = segments().length;
    expect(afterRun).toBeGreaterThan(0);
    expect(afterRun).toBeLessThan(files.length);

    writeFileSync(files[0] as string, line('m3', 'user', 'the nightly export skips archived rooms') + line('r3', 'assistant', 'noted'), { flag: 'a' });
    expect((await d.cli(['ingest', files[0] as string, '--project', dir])).code).toBe(0);
    // Once the appends pause, indexed without a search.
    await expect.poll(() => segments().length, { timeout: 5000 }).toBe(afterRun + 1);
    expect((await search(d, 'nightly export archived', dir))[0]?.messageId).toBe('m3');
    expect((await d.client.status()).memory?.episodes).toBe(8);
  });

  it('finds what was ingested right before a stop, however far its indexing had come', async () => {
    const d = newDaemon();
    await d.start();
    const dir = tmp();
    const file = join(dir, 's.jsonl');
    writeFileSync(file, line('k1', 'user', 'the kiosk printer jams on duplex jobs') + line('k2', 'assistant', 'noted'));
    expect((await d.cli(['ingest', file, '--project', dir])).code).toBe(0);
    await d.stop();
    await d.start();
    expect((await search(d, 'kiosk printer duplex', dir))[0]?.messageId).toBe('k1');
    expect((await d.client.status()).memory?.episodes).toBe(2);
  });
});
