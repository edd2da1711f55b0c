/**
 * The dream's view of each memory (its namespace and slot), and the pairs worth a second look.
 * Identity is the slot: groups of one namespace and slot are merged (same value) or resolved
 * (another value). Pairs that read alike but have different slots — a paraphrase the analysis did
 * not recognise, or two different facts — are "uncertain": only a model may merge them, so without
 * one they stay apart. They are found without comparing every pair: each statement is filed under
 * its rarest content words, and only statements sharing a block are compared.
 */
import type { Memory, Slot } from '../api/memory.js';
import {
  CONDITIONS,
  DEICTIC,
  FIRST_PLURAL,
  FIRST_SINGULAR,
  jaccard,
  namespaceKey,
  namespaceOf,
  SECOND,
  slotKey,
  slotOf,
  STANDING,
  stem,
  terms,
  UNIVERSAL,
} from '../memory/index.js';

export interface Shaped {
  memory: Memory;
  ns: string;
  slot?: Slot;
  /** Content words, for finding uncertain pairs only. */
  words: Set<string>;
}

export interface Pair {
  a: number;
  b: number;
  similarity: number;
}

const KEYS = 3;
const MAX_BLOCK = 400;
/** Pairs at least this alike in wording, with different slots, may be paraphrases. */
export const MAYBE = 0.3;

/**
 * Function words and markers a rewording may trade freely ("each" for "always", "the" for "our",
 * "when" for "if"); not "before" and "after", which say opposite things.
 */
const CONNECTIVES = ['instead', 'rather', 'than', 'also', 'just', 'only', 'then', 'too', 'both', 'either', 'please'];
const ORDER = new Set(['before', 'after']);
export const FREE: ReadonlySet<string> = new Set(
  [...STANDING, ...UNIVERSAL, ...DEICTIC, ...[...CONDITIONS].filter((w) => !ORDER.has(w)), ...FIRST_PLURAL, ...FIRST_SINGULAR, ...SECOND, ...CONNECTIVES].map(
    stem,
  ),
);

/** "linter" is who lints, "formatter" what formats: the same thing as the verb, for telling restatements. */
function agentBase(term: string): string {
  if (term.length <= 5 || !term.endsWith('er')) return term;
  const base = term.slice(0, -2);
  return /([b-df-hj-np-tv-z])\1$/.test(base) ? base.slice(0, -1) : base;
}

/** What a statement says, for telling two wordings of it apart: its content terms, without the words a rewording trades. */
export function contentTerms(text: string): Set<string> {
  return new Set(
    terms(text.replace(/['’]s\b/g, ''))
      .filter((t) => !FREE.has(t))
      .map(agentBase),
  );
}

/** Memories with their slots; `computed` lists those whose slot was worked out anew (to be saved). */
export function shape(memories: Memory[]): { items: Shaped[]; computed: Map<string, Slot> } {
  const computed = new Map<string, Slot>();
  const items = memories.map((memory) => {
    // Read again from the words (the reading improves between releases); an edited memory keeps the slot its edit set.
    let slot = memory.slot;
    if (memory.editedAt === undefined) {
      const now = slotOf(memory.content);
      if (now !== undefined && (slot === undefined || slotKey(now) !== slotKey(slot) || now.value !== slot.value)) computed.set(memory.id, now);
      slot = now ?? slot;
    }
    return {
      memory,
      ns: namespaceKey(namespaceOf(memory)),
      ...(slot !== undefined && { slot }),
      words: contentTerms(memory.content),
    };
  });
  return { items, computed };
}

/** Indices of the memories sharing a namespace and slot, for each slot held by two or more. */
export function slotGroups(items: Shaped[]): number[][] {
  const groups = new Map<string, number[]>();
  items.forEach((it, i) => {
    if (it.slot === undefined) return;
    const key = `${it.ns}\u0000${slotKey(it.slot)}`;
    const g = groups.get(key);
    if (g) g.push(i);
    else groups.set(key, [i]);
  });
  return [...groups.values()].filter((g) => g.length > 1);
}

/** Pairs of one namespace that read alike but are not one slot: for the model, when there is one. */
export function uncertainPairs(items: Shaped[]): Pair[] {
  const df = new Map<string, number>();
  for (const it of items) for (const t of it.words) df.set(t, (df.get(t) ?? 0) + 1);
  const blocks = new Map<string, number[]>();
  items.forEach((it, i) => {
    const rare = [...it.words].sort((x, y) => (df.get(x) ?? 0) - (df.get(y) ?? 0) || (x < y ? -1 : 1)).slice(0, KEYS);
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
        const a = Math.min(block[x] as number, block[y] as number);
        const b = Math.max(block[x] as number, block[y] as number);
        if (seen.has(a * n + b)) continue;
        seen.add(a * n + b);
        const A = items[a] as Shaped;
        const B = items[b] as Shaped;
        if (A.slot !== undefined && B.slot !== undefined && slotKey(A.slot) === slotKey(B.slot)) continue; // decided by the slot
        const similarity = jaccard(A.words, B.words);
        if (similarity >= MAYBE) pairs.push({ a, b, similarity });
      }
    }
  }
  return pairs;
}
