/**
 * A memory rejected through the CLI becomes a labelled negative the ranker's fit reads offline from
 * the daemon's injection ledger: the candidate it came from, featurised by the daemon's own code.
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { IngestSummary } from '../../src/api/memory.js';
import { FEATURES } from '../../src/memory/rank/features.js';
import { readRejections, rejectionRows } from '../../scripts/fit/rejections.js';
import { daemonsPerTest, tempDirsPerTest } from '../helpers/daemon.js';
import { writeClaudeTranscript } from '../helpers/transcripts.js';

const newDaemon = daemonsPerTest(afterEach);
const tmp = tempDirsPerTest(afterEach, 'ns-rejfit-');

describe('rejections as negatives for the ranker fit', () => {
  it('a rejected memory is found again in its transcript and joins the fit as junk', async () => {
    const d = newDaemon();
    await d.start();
    const dir = tmp();
    const file = join(dir, 't.jsonl');
    writeClaudeTranscript(file, [{ role: 'user', text: 'From now on, always write commit messages in the imperative mood.' }], {
      sessionId: 'rej-1',
      cwd: dir,
    });
    const s = JSON.parse((await d.cli(['ingest', file, '--json'])).stdout) as IngestSummary;
    const m = s.added[0];
    expect(m).toBeDefined();
    const ledger = join(d.paths.stateDir, 'injections.jsonl');
    expect(await rejectionRows(ledger)).toEqual([]);
    expect((await d.cli(['memories', 'reject', m?.id ?? '', '--project', dir])).code).toBe(0);
    expect(readRejections(ledger).map((r) => [r.memoryId, r.transcripts.map((t) => t.path)])).toEqual([[m?.id, [file]]]);
    const rows = await rejectionRows(ledger);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ wanted: 0, junk: 1, file: { group: 'rejected' } });
    expect(rows[0]?.text).toContain('imperative mood');
    expect(rows[0]?.x).toHaveLength(FEATURES.length);
    // Undone: the person took it back, so it is no negative.
    expect((await d.cli(['memories', 'unreject', m?.id ?? ''])).code).toBe(0);
    expect(readRejections(ledger)).toEqual([]);
  });
});
