/**
 * The compaction component decides and keeps its own state (count, summary, breaker, once per
 * iteration, a manual request); the manager only asks it and applies what it answers.
 */
import { describe, expect, it } from 'vitest';
import { Compactions, type CompactionJob } from '../../../src/agent/context/compaction-state.js';
import { DEFAULT_COMPACTION } from '../../../src/agent/context/config.js';
import { History } from '../../../src/agent/context/history.js';
import { assistant, filler, user } from './helpers.js';

const SUMMARY = '<summary>\n## Goal\nport the parser\n## Next step\nContinue.\n</summary>';
const window = { contextWindow: 20_000, maxOutputTokens: 4_000 };

function job(iteration: number): CompactionJob {
  const history = new History();
  for (let i = 0; i < 6; i++) {
    history.add(user(`step ${i} ${filler(4_000)}`));
    history.add(assistant(`done ${i}`));
  }
  history.add(user('go on'));
  return { history, iteration, ratio: 1, task: 'port the parser', notes: '' };
}

function compactions(summarize: () => Promise<{ text: string }>, restored?: { count: number; summary: undefined }) {
  return new Compactions({ config: DEFAULT_COMPACTION, window, budget: 16_000, summarize, onExtractError: () => {}, restored });
}

describe('compactions', () => {
  it('answers when to compact: past the threshold at a turn boundary, once per iteration, or when asked', async () => {
    const c = compactions(async () => ({ text: SUMMARY }));
    expect(c.due(0.85 * 16_000, 1, true)).toBe('proactive');
    expect(c.due(0.85 * 16_000, 1, false)).toBeUndefined(); // inside a tool exchange
    expect(c.due(1_000, 1, true)).toBeUndefined();
    const o = await c.run('proactive', job(1));
    expect(o.kind).toBe('done');
    expect(c.due(0.9 * 16_000, 1, true)).toBeUndefined(); // already compacted in this iteration
    c.request();
    expect(c.due(1_000, 2, true)).toBe('manual');
    expect(c.count).toBe(1);
    expect(c.lastSummary?.goal).toContain('port the parser');
  });

  it('opens its breaker after three failures, refuses but a manual compaction, and reports each', async () => {
    const c = compactions(async () => Promise.reject(new Error('overloaded')));
    for (let i = 1; i <= 3; i++) {
      const o = await c.run('proactive', job(i));
      expect(o).toMatchObject({ kind: 'failed', breakerOpened: i === 3 });
      expect(c.report('proactive', o, 100, 100).map((e) => e.type)).toEqual(i === 3 ? ['breaker_open', 'compaction'] : ['compaction']);
    }
    const refused = await c.run('reactive', job(4));
    expect(refused).toMatchObject({ kind: 'refused', error: { code: 'breaker_open' } });
    expect(c.report('reactive', refused, 100, 100)).toEqual([]);
    expect((await c.run('manual', job(5))).kind).toBe('failed'); // tried all the same
  });

  it('goes on counting for a resumed task: the next summary is the count after the checkpoint', async () => {
    const c = compactions(async () => ({ text: SUMMARY }), { count: 4, summary: undefined });
    const j = job(1);
    const o = await c.run('proactive', j);
    expect(o.kind).toBe('done');
    expect(c.count).toBe(5);
    expect(JSON.stringify(j.history.messages()[0])).toContain('compaction 5: earlier turns');
    expect(c.report('proactive', o, 12_000, 4_000)[0]).toMatchObject({ type: 'compaction', ok: true, beforeTokens: 12_000, afterTokens: 4_000 });
    expect(c.lastRatio).toBe(3);
  });
});
