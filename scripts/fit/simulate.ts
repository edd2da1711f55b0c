/**
 * What recall would hand each project, from scored candidates: the daemon's own budget filling
 * (recall/select.ts) over the project's candidates, then the corpus's regexes against what was
 * picked, counted the way the real-session scorer counts.
 */
import { estimateTokens } from '../../src/llm/tokens.js';
import { MEMORY_TOKENS, ITEM_FRAME_TOKENS } from '../../src/memory/recall/budget.js';
import { fillBudget, type Offer } from '../../src/memory/recall/select.js';
import { ownStatement, storable } from '../../src/memory/rank/kind.js';
import { keepOf, type KeepPolicy } from '../../src/memory/rank/keep.js';
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

/** What each file (one session) keeps, with the score it is stored with. */
function keptBySession(rows: readonly Row[], score: (r: Row) => number, policy: KeepPolicy): Map<Row, number> {
  const byFile = new Map<string, Row[]>();
  for (const r of rows) {
    const list = byFile.get(r.file.file);
    if (list === undefined) byFile.set(r.file.file, [r]);
    else list.push(r);
  }
  return new Map([...byFile.values()].flatMap((list) => keepOf(list, score, policy, (r) => ownStatement(r.source)).map((k) => [k.item, k.score] as const)));
}

/** Recall for every project of `rows`, scored by `score`, counted against the labels of its files. */
export function simulate(all: readonly Row[], score: (r: Row) => number, policy: KeepPolicy): Tally {
  // What the kind says is never a memory of its own is never stored, whatever its score; a verdict
  // is stored whatever its score (rank/proposals.ts).
  const stored = keptBySession(
    all.filter((r) => !r.verdict && storable(r.kind, r.source)),
    score,
    policy,
  );
  for (const r of all) if (r.verdict) stored.set(r, Math.max(score(r), policy.floor));
  // Every project counts its labels, whether or not anything of it was kept.
  const byProject = new Map<string, Row[]>();
  for (const r of all) {
    const list = byProject.get(r.file.project);
    if (list === undefined) byProject.set(r.file.project, [r]);
    else list.push(r);
  }
  let t = emptyTally();
  for (const [, list] of byProject) {
    const offers: Offer<Row>[] = list.flatMap((r) => {
      const score = stored.get(r);
      return score === undefined ? [] : [{ item: r, score, tokens: estimateTokens(r.text) + ITEM_FRAME_TOKENS, slot: r.slot, wording: r.wording }];
    });
    const picked = fillBudget(offers, MEMORY_TOKENS, policy.floor).map((o) => o.item);
    const files = [...new Set(list.map((r) => r.file))];
    // Items are matched per file of the project, as the scorer matches each file's labels against the project's recall.
    const hit = (r: Row, f: Row['file'], kind: 'matchesWanted' | 'matchesJunk') => (r.file === f ? r[kind] : crossMatches(r, f, kind));
    let wanted = 0;
    let junk = 0;
    for (const f of files) {
      // What the project's state lines recall counts as recalled whatever the memories pick.
      const w = new Set<number>(stateMatches(f, 'wanted'));
      const j = new Set<number>(stateMatches(f, 'junk'));
      for (const r of picked) {
        for (const i of hit(r, f, 'matchesWanted')) w.add(i);
        for (const i of hit(r, f, 'matchesJunk')) j.add(i);
      }
      wanted += w.size;
      junk += j.size;
    }
    t = addTally(t, {
      wanted,
      wantedTotal: files.reduce((n, f) => n + f.wanted.length, 0),
      junk,
      items: picked.length,
      onTarget: picked.filter((r) => files.some((f) => hit(r, f, 'matchesWanted').length > 0)).length,
      chars: [picked.reduce((n, r) => n + r.text.length, 0)],
    });
  }
  return t;
}

const byState = new Map<string, number[]>();
/** The file's wanted or junk items a line of its project's current state matches (compiled once, remembered). */
function stateMatches(f: Row['file'], kind: 'wanted' | 'junk'): number[] {
  const key = `${kind}\u0000${f.file}`;
  let out = byState.get(key);
  if (out === undefined) {
    const lines = f.state ?? [];
    out = f[kind].flatMap((x, i) => (lines.some((l) => new RegExp(x.regex, 'i').test(l)) ? [i] : []));
    byState.set(key, out);
  }
  return out;
}

const cross = new Map<string, number[]>();
/** A candidate of one file against another file's items of the same project (compiled once, remembered). */
function crossMatches(r: Row, f: Row['file'], kind: 'matchesWanted' | 'matchesJunk'): number[] {
  const key = `${kind}\u0000${f.file}\u0000${r.file.file}\u0000${r.text}`;
  let out = cross.get(key);
  if (out === undefined) {
    const items = kind === 'matchesWanted' ? f.wanted : f.junk;
    out = items.flatMap((x, i) => (new RegExp(x.regex, 'i').test(r.text) ? [i] : []));
    cross.set(key, out);
  }
  return out;
}

export const median = (xs: readonly number[]): number => {
  const v = [...xs].sort((a, b) => a - b);
  return v.length === 0 ? 0 : (v[Math.floor(v.length / 2)] as number);
};
