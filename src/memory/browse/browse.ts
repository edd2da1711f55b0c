/**
 * Browsing the store (the dashboard's and `memories list`'s filters): which namespaces, which state,
 * a search ranked by the BM25 index recall uses, filters, an order and a page with the total.
 */
import type { ListMemoriesQuery, Memory } from '../../api/memory.js';
import { isActive, type Namespace } from '../store/model.js';
import type { MemoryStore } from '../store/store.js';
import { terms } from '../nlp/text.js';

export interface Browse {
  namespaces: Namespace[];
  state: 'active' | 'archived' | 'all';
}

/** Archived memories are not in the search index: they match when they hold every word of the query, most matches first. */
function wordMatches(memories: Memory[], q: string): Memory[] {
  const want = [...new Set(terms(q))];
  if (want.length === 0) return [];
  return memories
    .map((m) => {
      const have = new Set(terms(m.content));
      return { m, n: want.filter((t) => have.has(t)).length };
    })
    .filter((x) => x.n === want.length)
    .map((x) => x.m);
}

export function browse(store: MemoryStore, where: Browse, q: ListMemoriesQuery): { memories: Memory[]; total: number } {
  const inState = (m: Memory) => where.state === 'all' || (where.state === 'active') === isActive(m);
  const keep = (m: Memory) =>
    inState(m) &&
    (q.type === undefined || m.type === q.type) &&
    (q.scope === undefined || m.scope === q.scope) &&
    (q.origin === undefined || m.origin === q.origin) &&
    (q.pinned === undefined || m.pinned === (q.pinned === '1')) &&
    (q.session === undefined || m.sources.some((s) => s.sessionId === q.session));
  let found: Memory[];
  if (q.q !== undefined) {
    const ranked = where.state === 'archived' ? [] : store.search(q.q, where.namespaces, Number.MAX_SAFE_INTEGER).map((h) => h.memory);
    const rest =
      where.state === 'active'
        ? []
        : wordMatches(
            where.namespaces.flatMap((ns) => store.list(ns).filter((m) => !isActive(m))),
            q.q,
          );
    found = [...ranked, ...rest].filter(keep);
  } else {
    found = where.namespaces.flatMap((ns) => store.list(ns).filter(keep));
    if (q.order === 'recent') found.sort((a, b) => b.lastSeenAt.localeCompare(a.lastSeenAt));
  }
  const from = q.offset ?? 0;
  return { memories: found.slice(from, q.limit === undefined ? undefined : from + q.limit), total: found.length };
}
