/**
 * Restatements across sessions: the same thing said again in other words ("run the linter before
 * each commit" / "before committing, always run the linter"). Pairs of one namespace whose content
 * words mostly coincide, with the same polarity and the same numbers, are one statement: merged into
 * the oldest, whose wording stays, its sessions and sightings added up. Pairs less alike stay for
 * the model review (when there is one) or apart.
 */
import type { Memory } from '../api/memory.js';
import { NEGATORS } from '../memory/rank/lexicon.js';
import { words } from '../memory/text.js';
import type { Plan } from './plan.js';
import type { Pair, Shaped } from './similarity.js';

/** Content words in common (Jaccard) from which two statements are one, offline. */
export const RESTATED = 0.6;

/** Negated auxiliaries as the tokenizer spells them (apostrophes dropped). */
const CONTRACTED = new Set('dont doesnt didnt wont cant isnt arent wasnt werent shouldnt wouldnt couldnt mustnt havent hasnt hadnt neednt'.split(' '));
const negated = (text: string): boolean => words(text).some((w) => NEGATORS.has(w) || CONTRACTED.has(w));
const numbers = (text: string): string => (text.match(/\d+(?:\.\d+)*/g) ?? []).sort().join(' ');
const older = (a: Memory, b: Memory): boolean => (a.createdAt !== b.createdAt ? a.createdAt < b.createdAt : a.id < b.id);

export function planRestatements(items: readonly Shaped[], pairs: readonly Pair[], plan: Plan, taken: Set<string>): void {
  const into = new Map<string, { root: Memory; merged: Memory[]; similarity: number }>();
  const rootOf = new Map<string, string>();
  for (const p of [...pairs].sort((x, y) => y.similarity - x.similarity)) {
    if (p.similarity < RESTATED) continue;
    const a = (items[p.a] as Shaped).memory;
    const b = (items[p.b] as Shaped).memory;
    if (taken.has(a.id) || taken.has(b.id) || a.pinned || b.pinned || a.editedAt !== undefined || b.editedAt !== undefined) continue;
    if (negated(a.content) !== negated(b.content) || numbers(a.content) !== numbers(b.content)) continue;
    const [keep, drop] = older(a, b) ? [a, b] : [b, a];
    // Each memory joins one group, and only straight into its root: no chains of "alike enough".
    if (rootOf.has(drop.id) || into.has(drop.id)) continue;
    const root = rootOf.get(keep.id) ?? keep.id;
    if (root !== keep.id) continue;
    const group = into.get(root) ?? { root: keep, merged: [], similarity: p.similarity };
    group.merged.push(drop);
    group.similarity = Math.min(group.similarity, p.similarity);
    into.set(root, group);
    rootOf.set(drop.id, root);
  }
  for (const g of into.values()) {
    for (const m of g.merged) taken.add(m.id);
    plan.merges.push({
      into: g.root.id,
      merged: g.merged.map((m) => m.id),
      text: g.root.content,
      reason: `restated: the same words at least ${Math.round(g.similarity * 100)}% (said in ${g.merged.length + 1} places)`,
    });
  }
}
