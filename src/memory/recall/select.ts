/**
 * Filling a recall block: the best-scored items first, down to the calibrated floor, until the
 * budget is spent. One item per slot (subject and attribute: a duplicate or an older value says
 * nothing the best one does not), one per wording, one memory of those that say one thing in other
 * words (the best), and no excerpt of a past session beside a memory it repeats (echo.ts): the
 * memory stays, whichever ranked first. `had`: what the reader already has (given earlier in the
 * session): an item repeating it, its slot, wording or content, is left out.
 */
import { echoes, Restatements, type Said } from './echo.js';

/** Stage 8 of 9 (after `RecallItem`, before `InjectedItem`): an item offered to the budget, with what it says. */
export interface Offer<T> extends Said {
  item: T;
  score: number;
  tokens: number;
}

export function fillBudget<T>(offers: readonly Offer<T>[], budget: number, floor: number, had: readonly Said[] = []): Offer<T>[] {
  const ranked = offers.filter((o) => o.score >= floor).sort((a, b) => b.score - a.score);
  const slots = new Set<string>(had.flatMap((h) => h.slot ?? []));
  const wordings = new Set<string>(had.map((h) => h.wording));
  const contents = new Restatements();
  for (const h of had) if (h.message === undefined) contents.add(h.wording);
  let out: Offer<T>[] = [];
  // Kept apart so that a block without excerpts (every session start) never compares anything.
  const memories: Offer<T>[] = [];
  let excerpts: Offer<T>[] = [];
  let left = budget;
  for (const o of ranked) {
    if (wordings.has(o.wording) || (o.slot !== undefined && slots.has(o.slot))) continue;
    let gone: Offer<T>[] = [];
    if (o.message !== undefined) {
      if (memories.some((m) => echoes(o, m)) || had.some((m) => echoes(o, m))) continue;
    } else if (excerpts.length > 0) gone = excerpts.filter((e) => echoes(e, o));
    const freed = gone.reduce((n, e) => n + e.tokens, 0);
    if (o.tokens > left + freed) continue;
    // Looked at only once it fits: a full block passes over most offers without reading their words.
    if (o.message === undefined && contents.has(o.wording)) continue;
    if (gone.length > 0) {
      out = out.filter((k) => !gone.includes(k));
      excerpts = excerpts.filter((k) => !gone.includes(k));
      for (const e of gone) wordings.delete(e.wording);
      left += freed;
    }
    wordings.add(o.wording);
    if (o.slot !== undefined) slots.add(o.slot);
    if (o.message === undefined) contents.add(o.wording);
    (o.message !== undefined ? excerpts : memories).push(o);
    out.push(o);
    left -= o.tokens;
  }
  return out;
}
