/**
 * The daemon answers while it ingests a long session: the ranking runs on its own thread
 * (memory/extract/rank-thread.ts) and the read gives way every few milliseconds
 * (sys/time-slices.ts). On one thread, this session's ranking held every request up for ~3 s.
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { daemonsPerTest, tempDirsPerTest } from '../../helpers/daemon.js';
import { writeClaudeTranscript, type Turn } from '../../helpers/transcripts.js';

const newDaemon = daemonsPerTest(afterEach);
const tempDir = tempDirsPerTest(afterEach, 'ns-resp-');

const PARTS = ['the API', 'the worker', 'the billing export', 'the mobile app', 'the search index', 'the admin panel', 'the importer', 'the scheduler'];
const SAID = [
  (p: string, i: number) => `When you touch ${p}, run make check${i} first.`,
  (p: string, i: number) => `${p} uses Postgres ${10 + (i % 7)} and Redis streams.`,
  (p: string, i: number) => `Never deploy ${p} on a Friday, version ${i}.`,
  (p: string, i: number) => `We decided to keep ${p} in one file number ${i} for now.`,
];

/** 3,000 messages: half of them the person's, each stating two things. */
function longSession(): Turn[] {
  return Array.from({ length: 3000 }, (_, i): Turn => {
    const part = PARTS[i % PARTS.length] as string;
    if (i % 2 === 1) return { role: 'assistant', text: `Done: I updated ${part} (step ${i}) and the tests pass.` };
    const first = SAID[i % 4] as (p: string, i: number) => string;
    const second = SAID[(i + 1) % 4] as (p: string, i: number) => string;
    return { role: 'user', text: `${first(part, i)} Also ${second(PARTS[(i + 3) % PARTS.length] as string, i)}` };
  });
}

describe('ingest beside the daemon’s other work', () => {
  it('answers status requests while it ingests a long session', async () => {
    const d = newDaemon({ transcripts: { watch: false } });
    await d.start();
    const dir = tempDir();
    const file = join(dir, 'long.jsonl');
    writeClaudeTranscript(file, longSession(), { sessionId: 'long-1', cwd: dir });

    let ingesting = true;
    const ingest = d.cli(['ingest', file, '--json'], { timeoutMs: 120_000 }).finally(() => (ingesting = false));
    const waits: number[] = [];
    while (ingesting) {
      const t0 = performance.now();
      await d.client.status();
      waits.push(performance.now() - t0);
      await new Promise((r) => setTimeout(r, 20));
    }
    const r = await ingest;
    expect(r.code, r.stderr).toBe(0);
    expect((JSON.parse(r.stdout) as { added: unknown[] }).added.length).toBeGreaterThan(0);
    // The requests covered the ingest, and none waited for the ranking (seconds on one thread).
    expect(Math.max(...waits)).toBeLessThan(1500);
    expect(waits.length).toBeGreaterThan(20);
  }, 120_000);
});
