/**
 * What recall ranks, per namespace: its active memories (every one without a query, the standing
 * instructions and preferences with one), each with the most rankOf can give it. Worked out once
 * and kept until the store changes: every write goes through the store and moves its `version`
 * (an archive, a merge, a pin, new sources), so a list is never served after a write. The order is
 * the store's, so the ranking meets the memories in the order it always did (ties stay as they were).
 */
import type { Memory } from '../../api/memory.js';
import { isActive, namespaceKey, rankBound, type Namespace } from '../store/model.js';
import type { MemoryStore } from '../store/store.js';

export interface Pooled {
  memory: Memory;
  /** rankOf's bound (store/model.ts `rankBound`): a memory that cannot beat this is skipped unranked. */
  bound: number;
}

/** Standing instructions and preferences: recalled even when a query does not match them. */
const STANDING = new Set<Memory['type']>(['instruction', 'preference']);

export interface Pool {
  list: readonly Pooled[];
  /** The highest bound in the list: a pool that cannot reach the ranker's floor is passed over whole. */
  most: number;
}

interface Lists {
  all?: Pool;
  standing?: Pool;
}

const cache = new WeakMap<MemoryStore, { version: number; byNamespace: Map<string, Lists> }>();

function listsOf(store: MemoryStore, ns: Namespace): Lists {
  let c = cache.get(store);
  if (!c || c.version !== store.version) {
    c = { version: store.version, byNamespace: new Map() };
    cache.set(store, c);
  }
  const key = namespaceKey(ns);
  let lists = c.byNamespace.get(key);
  if (!lists) {
    lists = {};
    c.byNamespace.set(key, lists);
  }
  return lists;
}

function pooled(list: readonly Memory[], test: (m: Memory) => boolean): Pool {
  const out: Pooled[] = [];
  let most = -Infinity;
  for (const memory of list) {
    if (!isActive(memory) || !test(memory)) continue;
    const bound = rankBound(memory);
    out.push({ memory, bound });
    most = Math.max(most, bound); // NaN stays NaN, which is below nothing: such a pool is never passed over
  }
  return { list: out, most };
}

/** The namespace's active memories, in the store's order. */
export function activePool(store: MemoryStore, ns: Namespace): Pool {
  const lists = listsOf(store, ns);
  return (lists.all ??= pooled(store.list(ns), () => true));
}

/** The namespace's active standing memories, in the store's order. */
export function standingPool(store: MemoryStore, ns: Namespace): Pool {
  const lists = listsOf(store, ns);
  return (lists.standing ??= pooled(store.list(ns), (m) => STANDING.has(m.type)));
}
