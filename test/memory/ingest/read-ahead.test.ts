/**
 * A transcript read ahead of its turn is used by its own request only: read the same way, and
 * with its session as it was when read. Otherwise the request reads it again.
 */
import { realpathSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../../src/log.js';
import { DigestStore } from '../../../src/memory/digest/store.js';
import { ReadAhead } from '../../../src/memory/ingest/read-ahead.js';
import { sessionKey, SessionRegistry } from '../../../src/memory/sessions.js';
import { StateStore } from '../../../src/memory/state/index.js';
import type { IngestSummary } from '../../../src/api/memory.js';
import { daemonsPerTest, tempDirsPerTest } from '../../helpers/daemon.js';
import { writeClaudeTranscript } from '../../helpers/transcripts.js';

const tempDir = tempDirsPerTest(afterEach, 'ns-ahead-');
const newDaemon = daemonsPerTest(afterEach);

async function setup() {
  const dir = tempDir();
  const file = join(dir, 'b.jsonl');
  writeClaudeTranscript(file, [{ role: 'user', text: 'The importer always runs with --dry-run first.' }], { sessionId: 'b', cwd: dir });
  const sessions = await SessionRegistry.open(join(dir, 'sessions.json'));
  const deps = { sessions, digests: new DigestStore(join(dir, 'digests')), states: new StateStore(join(dir, 'state')), log: createLogger('silent') };
  return { dir, file, sessions, ahead: new ReadAhead(deps) };
}

describe('a transcript read ahead', () => {
  it('is taken once, by a request that reads it the same way', async () => {
    const { file, ahead } = await setup();
    await ahead.start({ path: file });
    expect(await ahead.take({ path: file, format: 'codex' })).toBeUndefined();
    expect(await ahead.take({ path: file, reingest: true })).toBeUndefined();
    const read = await ahead.take({ path: file });
    expect(read?.unchanged).toBe(false);
    expect(read?.unchanged === false && read.messages.map((m) => m.text)).toEqual(['The importer always runs with --dry-run first.']);
    expect(await ahead.take({ path: file })).toBeUndefined();
  });

  it('is not taken once its session moved on since it was read', async () => {
    const { file, sessions, ahead } = await setup();
    await ahead.start({ path: file });
    const session = sessions.ensure(sessionKey(realpathSync(file)), { sessionId: 'b', path: file, project: null });
    session.state = 'ingesting';
    expect(await ahead.take({ path: file })).toBeUndefined();
  });

  it('of a file that cannot be read is left for its own request to report', async () => {
    const { dir, ahead } = await setup();
    const missing = join(dir, 'gone.jsonl');
    await ahead.start({ path: missing });
    expect(await ahead.take({ path: missing })).toBeUndefined();
  });

  it('naming the file being ingested itself ingests it once', async () => {
    const d = newDaemon({ transcripts: { watch: false } });
    await d.start();
    const { file } = await setup();
    const first = (await d.client.ingest({ path: file, next: file })).summary as IngestSummary;
    expect(first.unchanged).toBe(false);
    expect(first.added.length).toBeGreaterThan(0);
    const again = (await d.client.ingest({ path: file })).summary as IngestSummary;
    expect(again.unchanged).toBe(true);
    expect(again.added).toEqual([]);
  });
});
