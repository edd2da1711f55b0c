/**
 * How a new statement meets the store: a repeat reinforces the memory it repeats, an explicit
 * change supersedes the older memories about what changed, anything else is added.
 */
import type { Memory, MemoryType, Source } from '../api/memory.js';
import { isActive, newMemoryId, type Namespace } from './model.js';
import type { MemoryStore } from './store.js';
import { jaccard, normalize, subjectAndValues, terms } from './text.js';

export interface Incoming {
  content: string;
  type: MemoryType;
  namespace: Namespace;
  stable: boolean;
  importance: number;
  /** When it was said (transcript time). */
  at: string;
  source?: Source;
  replaces?: string[];
  origin: Memory['origin'];
}

export interface MergeResult {
  kind: 'added' | 'reinforced' | 'unchanged';
  memory: Memory;
  superseded: Memory[];
}

/** Share of content words two statements need in common to say the same thing. */
export const NEAR_DUPLICATE = 0.75;

/** Same words, or nearly, and exactly the same values: "port 5432" never repeats "port 5433". */
export function isDuplicate(a: string, b: string): boolean {
  if (normalize(a) === normalize(b)) return true;
  const x = subjectAndValues(a);
  const y = subjectAndValues(b);
  if (x.values.join(' ') !== y.values.join(' ')) return false;
  return jaccard(new Set(x.subject), new Set(y.subject)) >= NEAR_DUPLICATE;
}

export function findDuplicate(store: MemoryStore, ns: Namespace, content: string): Memory | undefined {
  if (normalize(content) === '') return undefined;
  return store.sharingWords(content, ns, NEAR_DUPLICATE).find((m) => isDuplicate(m.content, content));
}

const hasSource = (m: Memory, s: Source) =>
  m.sources.some((x) => x.sessionId === s.sessionId && s.messageIds.every((id) => x.messageIds.includes(id)));

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Active memories in the namespace that state `old` as current (not as what was left behind). */
function aboutOld(store: MemoryStore, ns: Namespace, old: string, exclude: string): Memory[] {
  const want = terms(old);
  if (want.length === 0) return [];
  const leftBehind = new RegExp(`(?:instead of|rather than|no longer|not|from|replac\\w*|drop\\w*)\\s+(?:\\S+\\s+){0,2}?${escape(old)}\\b`, 'i');
  return store
    .search(old, [ns], 50, true)
    .map((h) => h.memory)
    .filter((m) => m.id !== exclude && isActive(m) && !leftBehind.test(m.content))
    .filter((m) => {
      const have = new Set(terms(m.content));
      return want.every((t) => have.has(t));
    });
}

export function merge(store: MemoryStore, inc: Incoming): MergeResult {
  const dup = findDuplicate(store, inc.namespace, inc.content);
  if (dup) {
    // Re-ingesting what was already counted (a crash before the cursor moved) changes nothing.
    if (inc.source && hasSource(dup, inc.source)) return { kind: 'unchanged', memory: dup, superseded: [] };
    const memory = store.update(dup.id, (m) => {
      m.reinforcements += 1;
      if (inc.at > m.lastSeenAt) m.lastSeenAt = inc.at;
      m.importance = Math.max(m.importance, inc.importance);
      m.stable = m.stable || inc.stable;
      if (inc.content.length > m.content.length && inc.content.length <= 300) m.content = inc.content;
      if (inc.source) m.sources.push(inc.source);
    });
    return { kind: 'reinforced', memory, superseded: [] };
  }
  const memory: Memory = {
    id: newMemoryId(),
    content: inc.content,
    type: inc.type,
    scope: inc.namespace.scope,
    ...(inc.namespace.scope === 'project' && { project: inc.namespace.project }),
    ...(inc.namespace.scope === 'team' && { team: inc.namespace.team }),
    stable: inc.stable,
    pinned: false,
    importance: inc.importance,
    createdAt: inc.at,
    lastSeenAt: inc.at,
    reinforcements: 0,
    sources: inc.source ? [inc.source] : [],
    origin: inc.origin,
  };
  store.add(memory);
  const superseded: Memory[] = [];
  for (const old of inc.replaces ?? []) {
    for (const m of aboutOld(store, inc.namespace, old, memory.id)) {
      if (m.createdAt > inc.at) continue; // only what was true before the change
      superseded.push(
        store.update(m.id, (x) => {
          x.supersededBy = memory.id;
          x.supersededAt = inc.at;
        }),
      );
    }
  }
  return { kind: 'added', memory, superseded };
}
