/**
 * Filling a recall block: the best-scored items first, down to the calibrated floor, until the
 * budget is spent. One item per slot (subject and attribute: a duplicate or an older value says
 * nothing the best one does not), and one per wording.
 */

export interface Offer<T> {
  item: T;
  score: number;
  tokens: number;
  /** Identity: items with the same key say the same thing (or an older value of it). */
  slot?: string | undefined;
  /** Normalised text. */
  wording: string;
}

export function fillBudget<T>(offers: readonly Offer<T>[], budget: number, floor: number): Offer<T>[] {
  const ranked = offers.filter((o) => o.score >= floor).sort((a, b) => b.score - a.score);
  const slots = new Set<string>();
  const wordings = new Set<string>();
  const out: Offer<T>[] = [];
  let left = budget;
  for (const o of ranked) {
    if (o.tokens > left) continue;
    if (wordings.has(o.wording) || (o.slot !== undefined && slots.has(o.slot))) continue;
    wordings.add(o.wording);
    if (o.slot !== undefined) slots.add(o.slot);
    out.push(o);
    left -= o.tokens;
  }
  return out;
}
