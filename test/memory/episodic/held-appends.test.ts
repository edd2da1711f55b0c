/**
 * Appends are indexed once they pause; a run of appends that never pauses is indexed as it goes
 * once it holds too many episodes, so what waits in memory stays bounded.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { EpisodeStore, type Episode } from '../../../src/memory/episodic/episodes.js';
import { tempDirsPerTest } from '../../helpers/daemon.js';

const tempDir = tempDirsPerTest(afterEach, 'ns-held-');

const episodes = (session: string, n: number): Episode[] =>
  Array.from({ length: n }, (_, i) => ({
    sessionId: session,
    messageId: `${session}-${i}`,
    project: '/p',
    role: 'user',
    kind: 'text',
    text: `step ${i} of the importer`,
  }));

/** Segment files of the one project's index. */
function segments(dir: string): string[] {
  const index = join(dir, 'index');
  const project = existsSync(index) ? readdirSync(index).find((f) => f.startsWith('p-')) : undefined;
  return project === undefined ? [] : readdirSync(join(index, project)).filter((f) => f.endsWith('.idx'));
}

describe('appends waiting to be indexed', () => {
  it('wait for a pause while they are few, and are indexed as they go once they are many', async () => {
    const dir = tempDir();
    const store = EpisodeStore.open(dir);
    try {
      await store.append('k1', episodes('s1', 50));
      await new Promise((r) => setTimeout(r, 100));
      expect(segments(dir)).toEqual([]); // a pause of 250 ms has not come yet

      await store.append('k2', episodes('s2', 20_000));
      // Started at once: well before the pause of 250 ms would have started it.
      await expect.poll(() => segments(dir).length, { timeout: 200, interval: 10 }).toBeGreaterThan(0);
      expect(store.search('importer step', { project: '/p', limit: 3 })).toHaveLength(3);
    } finally {
      store.close();
    }
  });
});
