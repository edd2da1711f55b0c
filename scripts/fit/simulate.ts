/**
 * What recall would hand each project, from scored candidates: the daemon's own budget filling
 * (recall/select.ts) over the project's candidates, then the corpus's regexes against what was
 * picked, counted the way the real-session scorer counts.
 */
import { estimateTokens } from '../../src/llm/tokens.js';
import { MEMORY_TOKENS, ITEM_FRAME_TOKENS } from '../../src/memory/recall/budget.js';
import { fillBudget, type Offer } from '../../src/memory/recall/select.js';
import type { Row } from './corpus.js';

export interface Tally {
  wanted: number;
  wantedTotal: number;
  junk: number;
  items: number;
  onTarget: number;
  chars: number[];
}

export const emptyTally = (): Tally => ({ wanted: 0, wantedTotal: 0, junk: 0, items: 0, onTarget: 0, chars: [] });

export function addTally(a: Tally, b: Tally): Tally {
  return {
    wanted: a.wanted + b.wanted,
    wantedTotal: a.wantedTotal + b.wantedTotal,
    junk: a.junk + b.junk,
    items: a.items + b.items,
    onTarget: a.onTarget + b.onTarget,
    chars: [...a.chars, ...b.chars],
  };
}

/** Recall for every project of `rows`, scored by `score`, counted against the labels of its files. */
export function simulate(rows: readonly Row[], score: (r: Row) => number, floor: number): Tally {
  const byProject = new Map<string, Row[]>();
  for (const r of rows) byProject.set(r.file.project, [...(byProject.get(r.file.project) ?? []), r]);
  let t = emptyTally();
  for (const [, list] of byProject) {
    const offers: Offer<Row>[] = list.map((r) => ({ item: r, score: score(r), tokens: estimateTokens(r.text) + ITEM_FRAME_TOKENS, slot: r.slot, wording: r.wording }));
    const picked = fillBudget(offers, MEMORY_TOKENS, floor).map((o) => o.item.text);
    const files = [...new Set(list.map((r) => r.file))];
    const wanted = files.flatMap((f) => f.wanted.map((w) => new RegExp(w.regex, 'i')));
    const junk = files.flatMap((f) => f.junk.map((j) => new RegExp(j.regex, 'i')));
    t = addTally(t, {
      wanted: wanted.filter((rx) => picked.some((p) => rx.test(p))).length,
      wantedTotal: wanted.length,
      junk: junk.filter((rx) => picked.some((p) => rx.test(p))).length,
      items: picked.length,
      onTarget: picked.filter((p) => wanted.some((rx) => rx.test(p))).length,
      chars: [picked.reduce((n, p) => n + p.length, 0)],
    });
  }
  return t;
}

export const median = (xs: readonly number[]): number => {
  const v = [...xs].sort((a, b) => a - b);
  return v.length === 0 ? 0 : (v[Math.floor(v.length / 2)] as number);
};
