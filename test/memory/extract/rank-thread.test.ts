/**
 * Ranking on its own thread (memory/extract/rank-thread.ts): the built entry answers what ranking
 * here answers, and a thread that is missing, dies or is ended leaves no session unranked.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { rankHere, RankThread } from '../../../src/memory/extract/rank-thread.js';
import type { ExtractMessage } from '../../../src/memory/transcripts/types.js';
import { tempDirsPerTest } from '../../helpers/daemon.js';

/** `npm test` builds dist/ first; the thread runs what the daemon runs. */
const BUILT = pathToFileURL(join(import.meta.dirname, '../../../dist/rank-worker.mjs'));

const typed = (id: string, text: string): ExtractMessage => ({ id, role: 'user', kind: 'text', origin: 'typed', text });
const said = (id: string, text: string): ExtractMessage => ({ id, role: 'assistant', kind: 'text', origin: 'assistant', text });
const session: ExtractMessage[] = [
  typed('m1', 'We deploy the API with fly deploy from the main branch, never from a feature branch.'),
  said('a1', 'Understood. Should I also set up the staging app?'),
  typed('m2', 'Yes, staging-2, not staging. When you touch the migrations, run make check first.'),
  typed('m3', 'Thanks! Can you run the tests again?'),
  typed('m4', 'The database is Postgres 16 and the queue is Redis streams.'),
];

function recorded(): { log: pino.Logger; lines: string[] } {
  const lines: string[] = [];
  return { log: pino({ level: 'warn' }, { write: (l: string) => void lines.push(l) }), lines };
}

const threads: RankThread[] = [];
const thread = (entry?: URL) => {
  const r = recorded();
  const t = entry === undefined ? new RankThread(r.log) : new RankThread(r.log, entry);
  threads.push(t);
  return { t, lines: r.lines };
};
afterEach(async () => {
  await Promise.all(threads.splice(0).map((t) => t.close()));
});
const tempDir = tempDirsPerTest(afterEach, 'ns-rank-');

describe('the ranking thread', () => {
  it('answers what ranking here answers: the offline proposals, and the whole list when asked', async () => {
    expect(existsSync(BUILT), 'dist/ is built (npm test builds it)').toBe(true);
    const { t, lines } = thread(BUILT);
    const here = await rankHere(session, 20, true);
    expect(here.offline.proposals.length).toBeGreaterThan(0);
    expect(await t.rank(session, 20)).toEqual({ offline: here.offline });
    expect(await t.rank(session, 20, true)).toEqual(here);
    expect(lines).toEqual([]);
  });

  it('ranks sessions sent together, each with its own answer', async () => {
    const { t } = thread(BUILT);
    t.warm();
    const one = session.slice(0, 2);
    const two = session.slice(3);
    const [a, b] = await Promise.all([t.rank(one, 20), t.rank(two, 20)]);
    expect(a).toEqual({ offline: (await rankHere(one, 20)).offline });
    expect(b).toEqual({ offline: (await rankHere(two, 20)).offline });
  });

  it('ranks here when its entry is not built', async () => {
    const { t, lines } = thread(pathToFileURL(join(tempDir(), 'rank-worker.mjs')));
    expect(await t.rank(session, 20)).toEqual({ offline: (await rankHere(session, 20)).offline });
    expect(lines).toEqual([]);
  });

  it('ranks here what a thread that died was holding, and says so', async () => {
    const entry = join(tempDir(), 'rank-worker.mjs');
    // A thread that takes the session and dies before it answers.
    writeFileSync(entry, "import { parentPort } from 'node:worker_threads';\nparentPort.on('message', () => process.exit(3));\n");
    const { t, lines } = thread(pathToFileURL(entry));
    expect(await t.rank(session, 20)).toEqual({ offline: (await rankHere(session, 20)).offline });
    expect(lines.join('')).toMatch(/the ranking thread stopped/);
    expect(lines.join('')).toMatch(/code 3/);
  });

  it('a programming error in the ranking fails the ingest as it would here', async () => {
    const entry = join(tempDir(), 'rank-worker.mjs');
    writeFileSync(
      entry,
      "import { parentPort } from 'node:worker_threads';\nparentPort.on('message', (j) => parentPort.postMessage({ id: j.id, error: 'TypeError: boom' }));\n",
    );
    const { t } = thread(pathToFileURL(entry));
    await expect(t.rank(session, 20)).rejects.toThrow(/ranking failed: TypeError: boom/);
  });

  it('closed while ranking, it ranks here what it was holding', async () => {
    const entry = join(tempDir(), 'rank-worker.mjs');
    // A thread that never answers.
    writeFileSync(entry, "import { parentPort } from 'node:worker_threads';\nparentPort.on('message', () => undefined);\n");
    const { t } = thread(pathToFileURL(entry));
    const answer = t.rank(session, 20);
    await new Promise((r) => setTimeout(r, 50));
    await t.close();
    expect(await answer).toEqual({ offline: (await rankHere(session, 20)).offline });
  });
});
