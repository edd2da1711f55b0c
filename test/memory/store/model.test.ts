import { describe, expect, it } from 'vitest';
import type { Memory } from '../../../src/api/memory.js';
import { FLOOR_GRACE_SESSIONS, FRESH_HALF_LIFE, graceOf, rankBound, rankOf } from '../../../src/memory/store/model.js';

/** A small deterministic generator: the same cases every run. */
function lcg(seed: number): () => number {
  let s = seed;
  return () => (s = (s * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
}

describe('rankBound', () => {
  it('is never below rankOf, whatever the age, the sessions since, a pin, a re-verify mark or the sources', () => {
    const r = lcg(31);
    const now = Date.parse('2026-11-27T12:00:00Z');
    let ranked = 0;
    for (let i = 0; i < 20_000; i++) {
      const sessions = Math.floor(r() * 40);
      const m: Pick<Memory, 'stable' | 'pinned' | 'lastSeenAt' | 'importance' | 'sources' | 'reverify'> = {
        stable: r() < 0.5,
        pinned: r() < 0.2,
        // Some seen after `now` (a clock ahead), most before it.
        lastSeenAt: new Date(now - Math.floor((r() - 0.05) * 500 * 86_400_000)).toISOString(),
        importance: Math.round(r() * 100) / 100,
        sources: Array.from({ length: sessions }, (_, j) => ({ sessionId: `s${Math.floor(j * r())}`, messageIds: [] })),
        ...(r() < 0.2 && { reverify: { at: '2026-11-01T00:00:00Z', reason: 'the file changed' } }),
      };
      const since = Math.floor(r() * 30);
      const clock = { last: r() < 0.3 ? undefined : now - Math.floor(r() * 30 * 86_400_000), after: () => since };
      const rank = rankOf(m, now, clock);
      if (rank >= 0) ranked++;
      expect(rank).toBeLessThanOrEqual(rankBound(m));
      // A stable, fresh memory seen once ranks at its bound exactly: the bound is not loose there.
      if (m.stable && !m.reverify && since === 0) expect(rank).toBe(rankBound(m));
    }
    expect(ranked).toBeGreaterThan(10_000);
  });
});

describe('graceOf', () => {
  const m = { lastSeenAt: '2026-11-20T00:00:00Z' };
  const after = (since: number) => ({ last: undefined, after: () => since });
  const fresh = (since: number) => 0.5 ** (since / FRESH_HALF_LIFE);

  it("gives back the freshness a memory lost to the project's next sessions, and no more", () => {
    expect(graceOf(m, after(0))).toBe(1);
    // Within the grace, recall's floor sees the rank as if no session had gone by.
    expect(graceOf(m, after(FLOOR_GRACE_SESSIONS))).toBeCloseTo(fresh(FLOOR_GRACE_SESSIONS), 12);
    // Beyond it, only the grace's sessions are given back: the memory still gives way as the project moves on.
    expect(graceOf(m, after(FLOOR_GRACE_SESSIONS + 5))).toBeCloseTo(fresh(FLOOR_GRACE_SESSIONS + 5) / fresh(5), 12);
    expect(
      rankOf({ ...m, stable: true, pinned: false, importance: 0.3, sources: [] }, Date.parse('2026-11-27T00:00:00Z'), after(9)) / graceOf(m, after(9)),
    ).toBeLessThan(0.3);
  });
});
