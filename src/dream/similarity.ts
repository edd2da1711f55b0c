/**
 * Finds near-duplicates and value conflicts among many short statements without comparing every
 * pair: each statement is filed under its rarest content words (blocking), and only statements
 * sharing a block are compared. Near-duplicates share most words, so they share a rare one.
 */
import type { Memory } from '../api/memory.js';
import { NEAR_DUPLICATE } from '../memory/merge.js';
import { namespaceKey, namespaceOf } from '../memory/model.js';
import { jaccard, subjectAndValues } from '../memory/text.js';

export interface Shaped {
  memory: Memory;
  ns: string;
  subject: Set<string>;
  values: string;
}

export interface Pair {
  a: number;
  b: number;
  similarity: number;
  /** Same subject, different values: one statement replaced the other. */
  conflict: boolean;
}

/** Keys per statement: its rarest words. Blocks larger than this are too common to be useful. */
const KEYS = 3;
const MAX_BLOCK = 400;
/** Subjects this close with different values are the same fact with a changed value. */
const CONFLICT = 0.8;
/** Pairs this close but not duplicates are "maybe": the model may judge them. */
export const MAYBE = 0.5;

export function shape(memories: Memory[]): Shaped[] {
  return memories.map((memory) => {
    const { subject, values } = subjectAndValues(memory.content);
    return { memory, ns: namespaceKey(namespaceOf(memory)), subject: new Set(subject), values: values.join(' ') };
  });
}

/** Every pair at least `MAYBE` similar within one namespace, each pair once. */
export function similarPairs(items: Shaped[]): Pair[] {
  const df = new Map<string, number>();
  for (const it of items) for (const t of it.subject) df.set(t, (df.get(t) ?? 0) + 1);
  const blocks = new Map<string, number[]>();
  items.forEach((it, i) => {
    const rare = [...it.subject].sort((x, y) => (df.get(x) ?? 0) - (df.get(y) ?? 0) || (x < y ? -1 : 1)).slice(0, KEYS);
    for (const t of rare) {
      const key = `${it.ns}\u0000${t}`;
      const block = blocks.get(key);
      if (block) block.push(i);
      else blocks.set(key, [i]);
    }
  });
  const seen = new Set<number>();
  const pairs: Pair[] = [];
  const n = items.length;
  for (const block of blocks.values()) {
    if (block.length < 2 || block.length > MAX_BLOCK) continue;
    for (let x = 0; x < block.length; x++) {
      for (let y = x + 1; y < block.length; y++) {
        const a = block[x] as number;
        const b = block[y] as number;
        const id = a < b ? a * n + b : b * n + a;
        if (seen.has(id)) continue;
        seen.add(id);
        const A = items[a] as Shaped;
        const B = items[b] as Shaped;
        const similarity = jaccard(A.subject, B.subject);
        if (similarity < MAYBE) continue;
        const conflict = A.values !== B.values && A.values !== '' && B.values !== '' && similarity >= CONFLICT;
        pairs.push({ a: Math.min(a, b), b: Math.max(a, b), similarity, conflict });
      }
    }
  }
  return pairs;
}

export const isNearDuplicate = (items: Shaped[], p: Pair): boolean =>
  !p.conflict && p.similarity >= NEAR_DUPLICATE && items[p.a]?.values === items[p.b]?.values;

/** Groups of indices joined by the given pairs (union-find). */
export function clusters(n: number, pairs: Pair[]): number[][] {
  const parent = Array.from({ length: n }, (_, i) => i);
  const find = (i: number): number => {
    while (parent[i] !== i) {
      parent[i] = parent[parent[i] as number] as number;
      i = parent[i] as number;
    }
    return i;
  };
  for (const p of pairs) {
    const ra = find(p.a);
    const rb = find(p.b);
    if (ra !== rb) parent[Math.max(ra, rb)] = Math.min(ra, rb);
  }
  const groups = new Map<number, number[]>();
  for (const p of pairs) {
    for (const i of [p.a, p.b]) {
      const r = find(i);
      const g = groups.get(r) ?? [];
      if (!g.includes(i)) g.push(i);
      groups.set(r, g);
    }
  }
  return [...groups.values()].filter((g) => g.length > 1);
}
