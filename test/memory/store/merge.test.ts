/** What an explicit change supersedes in the store (store/merge.ts): the older memories about the old thing. */
import { afterEach, describe, expect, it } from 'vitest';
import type { Memory } from '../../../src/api/memory.js';
import { merge } from '../../../src/memory/store/merge.js';
import { MemoryStore } from '../../../src/memory/store/store.js';
import { tempDirsPerTest } from '../../helpers/daemon.js';

const tmp = tempDirsPerTest(afterEach, 'ns-merge-');
const namespace = { scope: 'project', project: '/home/ana/src/tide' } as const;

async function said(lines: { text: string; replaces?: string[] }[]): Promise<readonly Memory[]> {
  const store = await MemoryStore.open(tmp());
  for (const [i, line] of lines.entries())
    merge(store, {
      text: line.text,
      type: 'instruction',
      namespace,
      stable: true,
      importance: 0.6,
      at: `2026-10-0${i + 1}T09:00:00.000Z`,
      source: { sessionId: `s${i}`, messageIds: [`m${i}`], said: 'typed' },
      ...(line.replaces !== undefined && { replaces: line.replaces }),
      origin: 'heuristic',
    });
  return store.list(namespace);
}

const active = (ms: readonly Memory[]): string[] => ms.filter((m) => m.supersededBy === undefined).map((m) => m.content);

describe('an explicit change', () => {
  it('supersedes an older memory that names the old thing, when it is a phrase of several words', async () => {
    const ms = await said([
      { text: 'After changing any query run `cargo sqlx prepare` — CI builds with SQLX_OFFLINE=true.' },
      { text: 'The API is Axum 0.7 on tokio.' },
      { text: "Don't run `cargo sqlx prepare` anymore and delete the .sqlx/ directory.", replaces: ['cargo sqlx prepare'] },
    ]);
    expect(active(ms)).toEqual(['The API is Axum 0.7 on tokio.', "Don't run `cargo sqlx prepare` anymore and delete the .sqlx/ directory."]);
  });
});
