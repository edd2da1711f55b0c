/** What a session keeps of its scored statements (rank/keep.ts). */
import { describe, expect, it } from 'vitest';
import { keepOf } from '../../../src/memory/rank/keep.js';

const policy = { floor: 0.1, perSession: 3, sessionBest: 1, shortSession: 2 };
const round = (x: number): number => Math.round(x * 1000) / 1000;
const kept = (scores: number[]) => keepOf(scores, (s) => s, policy).map((k) => [k.item, round(k.score)]);

describe('keep policy', () => {
  it('a short session keeps every statement, stored just above the floor', () => {
    expect(kept([-0.5, 0.3])).toEqual([
      [0.3, 0.3],
      [-0.5, 0.15],
    ]);
  });

  it('a longer one keeps those at the floor and its best below it, at most the cap', () => {
    expect(kept([-0.2, -0.1, -0.3])).toEqual([[-0.1, 0.15]]);
    expect(kept([0.5, 0.4, 0.3, 0.2, -0.1])).toEqual([
      [0.5, 0.5],
      [0.4, 0.4],
      [0.3, 0.3],
    ]);
    expect(kept([0.5, -0.1, -0.2])).toEqual([[0.5, 0.5]]);
  });

  it('a session that would leave nothing keeps its best statement, raised to the floor', () => {
    const none = { ...policy, sessionBest: 0, shortSession: 0 };
    expect(keepOf([-0.2, 0.05, -0.3], (s) => s, none).map((k) => [k.item, round(k.score)])).toEqual([[0.05, 0.15]]);
    expect(keepOf([0.3, 0.05], (s) => s, none).map((k) => [k.item, round(k.score)])).toEqual([[0.3, 0.3]]);
    expect(keepOf([], (s: number) => s, none)).toEqual([]);
  });

  it("only the person's own statements make a session short; a summary's lines still go by the floor", () => {
    const items = [
      { s: -0.5, own: true },
      { s: -0.4, own: false },
      { s: 0.3, own: false },
    ];
    const out = keepOf(
      items,
      (i) => i.s,
      { ...policy, sessionBest: 0 },
      (i) => i.own,
    ).map((k) => [k.item.s, round(k.score)]);
    expect(out).toEqual([
      [0.3, 0.3],
      [-0.5, 0.15],
    ]);
  });
});
