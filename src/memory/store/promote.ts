/**
 * A preference or standing instruction the person gave in two different projects is how they
 * work, not a project's convention: it is promoted to user scope. The user memory takes the
 * sources of both; the project copies are kept, superseded by it, and restorable. Only what the
 * person said counts: a sentence a tool writes into every project (a compaction summary's, an
 * instruction file's) recurs without being anyone's way of working.
 */
import type { Memory } from '../../api/memory.js';
import { merge } from './merge.js';
import { isActive, namespaceOf, type Namespace } from './model.js';
import { sameValue } from './slots.js';
import { standingIn } from '../nlp/lexicon.js';
import type { MemoryStore } from './store.js';

const PROMOTABLE = new Set<Memory['type']>(['preference', 'instruction']);

/** A taste, or a rule said to hold always ("never…", "from now on…"): a command for the task at hand is not how someone works. */
function general(m: Memory): boolean {
  return m.type === 'preference' || standingIn(m.content);
}

/** Where the person's own words come from; a source without `said` predates the record and counts as theirs. */
const PERSON = new Set(['typed', 'feedback', 'answer', 'plan']);

/** The person said it in this project: typed it, answered with it, approved it. */
function personSaid(m: Memory): boolean {
  return m.origin === 'manual' || m.sources.some((s) => s.said === undefined || PERSON.has(s.said));
}

function sameStatement(a: Memory, b: Memory): boolean {
  if (a.slot !== undefined && b.slot !== undefined)
    return a.slot.subject === b.slot.subject && a.slot.attribute === b.slot.attribute && sameValue(a.slot, b.slot);
  return false;
}

/** Promotes `m` (just added or reinforced in a project) when another project holds the same statement. */
export function promoteIfShared(store: MemoryStore, m: Memory, at: string): Memory | undefined {
  if (m.scope !== 'project' || !PROMOTABLE.has(m.type) || !general(m) || m.slot === undefined || !isActive(m) || !personSaid(m)) return undefined;
  const others: Memory[] = [];
  for (const ns of store.namespaces()) {
    if (ns.scope !== 'project' || ns.project === m.project) continue;
    for (const x of store.withSlot(ns, m.slot)) if (PROMOTABLE.has(x.type) && sameStatement(x, m) && personSaid(x)) others.push(x);
  }
  if (others.length === 0) return undefined;
  const user: Namespace = { scope: 'user' };
  const out = merge(store, {
    text: m.content,
    type: m.type,
    namespace: user,
    // A rule bound to the moment stays so when it is promoted: only the said-in-two-projects part changes.
    stable: m.stable && others.every((x) => x.stable),
    importance: Math.max(m.importance, ...others.map((x) => x.importance)),
    at,
    origin: m.origin,
    slot: m.slot,
  });
  const promoted = out.memory;
  for (const x of [m, ...others]) {
    for (const s of x.sources)
      if (!promoted.sources.some((p) => p.sessionId === s.sessionId))
        store.update(promoted.id, (p) =>
          p.sources.push({ sessionId: s.sessionId, messageIds: [...s.messageIds], ...(s.said !== undefined && { said: s.said }) }),
        );
    store.update(x.id, (y) => {
      y.supersededBy = promoted.id;
      y.supersededAt = at;
      y.archiveReason = `promoted to user scope: said in ${namespaceOf(y).scope === 'project' ? 'more than one project' : 'several places'}`;
    });
  }
  return promoted;
}
