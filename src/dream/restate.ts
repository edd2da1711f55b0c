/**
 * Restatements across sessions: the same thing said again in other words ("run the linter before
 * each commit" / "before committing, always run the linter"). Pairs of one namespace whose content
 * words mostly coincide, with the same polarity and the same numbers, are one statement: merged into
 * the oldest, whose wording stays, its sessions and sightings added up. Pairs less alike stay for
 * the model review (when there is one) or apart.
 */
import type { Memory } from '../api/memory.js';
import { jaccard, negated, TOOL_CATEGORY } from '../memory/index.js';
import type { Plan } from './plan.js';
import { contentTerms, FREE, type Pair, type Shaped } from './similarity.js';

/** Content words in common (Jaccard) from which two statements are one, offline. */
export const RESTATED = 0.6;

export const numbers = (text: string): string => (text.match(/\d+(?:\.\d+)*/g) ?? []).sort().join(' ');
/**
 * The names a statement holds: identifiers (with a digit, dash, dot or underscore), capitalised words
 * after its first, known tools. Two statements that each name something the other does not are about
 * different things ("deploys of nova-api…" / "deploys of orbit-api…"), however alike the rest reads.
 */
function namesIn(text: string): Set<string> {
  const out = new Set<string>();
  const tokens = text.match(/[\p{L}\p{N}][\p{L}\p{N}._\-/]*/gu) ?? [];
  tokens.forEach((t, i) => {
    const w = t.replace(/[._-]+$/, '');
    const lower = w.toLowerCase();
    if (/[\d._\-/]/.test(w) || (i > 0 && /^\p{Lu}/u.test(w)) || TOOL_CATEGORY.has(lower)) out.add(lower);
  });
  return out;
}

export function differentNames(a: string, b: string): boolean {
  const x = namesIn(a);
  const y = namesIn(b);
  return [...x].some((n) => !y.has(n)) && [...y].some((n) => !x.has(n));
}

/**
 * One content word traded for another on each side ("the backend deploys…" / "the frontend
 * deploys…") is another thing, not the same thing said again: a rewording moves words around, a
 * near miss swaps one.
 */
export function swapsContent(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  const only = (x: ReadonlySet<string>, y: ReadonlySet<string>) => [...x].filter((w) => !y.has(w) && !FREE.has(w));
  return only(a, b).length > 0 && only(b, a).length > 0;
}

const older = (a: Memory, b: Memory): boolean => (a.createdAt !== b.createdAt ? a.createdAt < b.createdAt : a.id < b.id);

export function planRestatements(items: readonly Shaped[], pairs: readonly Pair[], plan: Plan, taken: Set<string>): void {
  const into = new Map<string, { root: Memory; merged: Memory[]; similarity: number }>();
  const rootOf = new Map<string, string>();
  for (const p of [...pairs].sort((x, y) => y.similarity - x.similarity)) {
    if (p.similarity < RESTATED) continue;
    const a = (items[p.a] as Shaped).memory;
    const b = (items[p.b] as Shaped).memory;
    if (taken.has(a.id) || taken.has(b.id) || a.pinned || b.pinned || a.editedAt !== undefined || b.editedAt !== undefined) continue;
    if (negated(a.content) !== negated(b.content) || numbers(a.content) !== numbers(b.content) || differentNames(a.content, b.content)) continue;
    if (swapsContent((items[p.a] as Shaped).words, (items[p.b] as Shaped).words)) continue;
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

/** The same statement in other words: most content words in common, nothing swapped, the same polarity, numbers and names. */
export function restates(a: string, b: string): boolean {
  const x = contentTerms(a);
  const y = contentTerms(b);
  return jaccard(x, y) >= RESTATED && negated(a) === negated(b) && numbers(a) === numbers(b) && !differentNames(a, b) && !swapsContent(x, y);
}
