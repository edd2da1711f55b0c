/**
 * Promotion to user scope counts only the person's own words: a rule they typed in two projects is
 * theirs everywhere; the same sentence coming from compaction summaries (or any tool-written text)
 * in both projects is not.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Memory } from '../../../src/api/memory.js';
import { merge } from '../../../src/memory/store/merge.js';
import { promoteIfShared } from '../../../src/memory/store/promote.js';
import { MemoryStore } from '../../../src/memory/store/store.js';
import { tempDirsPerTest } from '../../helpers/daemon.js';

const tmp = tempDirsPerTest(afterEach, 'ns-cand-promote-');
const RULE = 'Always run the linter before committing.';

async function saidInTwo(said: [string | undefined, string | undefined]): Promise<Memory | undefined> {
  const store = await MemoryStore.open(tmp());
  let last: Memory | undefined;
  for (const [i, project] of ['/home/ana/src/a', '/home/ana/src/b'].entries()) {
    const kind = said[i];
    const out = merge(store, {
      text: RULE,
      type: 'instruction',
      namespace: { scope: 'project', project },
      stable: true,
      importance: 0.8,
      at: `2026-10-0${i + 1}T09:00:00.000Z`,
      source: { sessionId: `s${i}`, messageIds: [`m${i}`], ...(kind !== undefined && { said: kind }) },
      origin: 'heuristic',
    });
    last = promoteIfShared(store, out.memory, out.memory.createdAt);
  }
  return last;
}

describe('promotion to user scope', () => {
  it('a rule the person typed in two projects is promoted, keeping where each was said', async () => {
    const promoted = await saidInTwo(['typed', 'typed']);
    expect(promoted?.scope).toBe('user');
    expect(promoted?.sources.map((s) => s.said)).toEqual(['typed', 'typed']);
  });

  it.each([
    ['summaries in both projects', ['summary-request', 'summary-next']],
    ['a summary in one, an instruction file in the other', ['summary-request', 'instructions']],
    ['typed in one project only', ['typed', 'summary-request']],
  ] as [string, [string, string]][])('the same sentence from %s is not', async (_, said) => {
    expect(await saidInTwo(said)).toBeUndefined();
  });

  it('memories recorded before sources said where they came from still promote', async () => {
    expect((await saidInTwo([undefined, undefined]))?.scope).toBe('user');
  });
});
