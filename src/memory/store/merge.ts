/**
 * How a new statement meets the store, by identity (slots.ts), never by word overlap:
 * - the same wording, or the same slot with the same value: the memory is reinforced (its text is
 *   never rewritten: what the person said first stays what they said);
 * - the same slot with another value, where the slot is one a fact can change in (a tool of a
 *   kind, a command's target or polarity), or an explicit change ("use yarn instead of pnpm"): the
 *   new statement supersedes the older one, which is kept, linked and restorable;
 * - anything else is a memory of its own.
 */
import type { Memory, MemoryType, Slot, Source } from '../../api/memory.js';
import { editedSince, isActive, newMemoryId, type Namespace } from './model.js';
import { numberChanged, sameValue, slotKey, slotOf } from './slots.js';
import type { MemoryStore } from './store.js';
import { marksChange } from '../nlp/lexicon.js';
import { normalize, terms } from '../nlp/text.js';
import { TOOL_CATEGORY } from '../nlp/tool-lexicon.js';

/** Stage 5 of 9 (after `Proposal`, before `Memory` in api/memory.ts): a proposal placed in a namespace, as merge meets it. */
export interface Incoming {
  text: string;
  type: MemoryType;
  namespace: Namespace;
  stable: boolean;
  importance: number;
  /** When it was said (transcript time). */
  at: string;
  source?: Source;
  replaces?: string[];
  origin: Memory['origin'];
  /** Computed from the content when not given. */
  slot?: Slot;
}

export interface MergeResult {
  kind: 'added' | 'reinforced' | 'unchanged';
  memory: Memory;
  superseded: Memory[];
}

const CATEGORIES = new Set(TOOL_CATEGORY.values());

/** Two values of one slot said the same way round: a flip of polarity is a contradiction, not a new value. */
const samePolarity = (a: Slot, b: Slot): boolean => a.value.charAt(0) === b.value.charAt(0);

/** Slots whose value is a choice that can change: a tool of a kind, what the agent is told to do. */
export function changeable(slot: Slot): boolean {
  return CATEGORIES.has(slot.attribute) || slot.subject === 'agent';
}

/** The memory that says the same thing: same wording, or same slot and value. */
export function findDuplicate(store: MemoryStore, ns: Namespace, content: string, slot: Slot | undefined = slotOf(content)): Memory | undefined {
  const worded = store.withText(ns, content)[0];
  if (worded !== undefined) return worded;
  return slot === undefined ? undefined : store.withSlot(ns, slot).find((m) => m.slot !== undefined && sameValue(m.slot, slot));
}

/** Whether `m` says what `content` says: the same wording, or the same slot and value. */
export function sameStatement(m: Memory, content: string, slot: Slot | undefined = slotOf(content)): boolean {
  if (normalize(m.content) === normalize(content)) return true;
  const theirs = m.slot ?? slotOf(m.content);
  return slot !== undefined && theirs !== undefined && slotKey(theirs) === slotKey(slot) && sameValue(theirs, slot);
}

const hasSource = (m: Memory, s: Source) => m.sources.some((x) => x.sessionId === s.sessionId && s.messageIds.every((id) => x.messageIds.includes(id)));

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

const sharesSession = (m: Memory, s: Source | undefined) => s !== undefined && m.sources.some((x) => x.sessionId === s.sessionId);

/**
 * Memories an explicit change retires: those of the namespace whose slot value names the old thing
 * ("pnpm" in "use yarn instead of pnpm"), or, without a slot, whose text states it as current.
 */
function aboutOld(store: MemoryStore, ns: Namespace, old: string, exclude: string, slot: Slot | undefined): Memory[] {
  const want = terms(old);
  if (want.length === 0) return [];
  const leftBehind = new RegExp(`(?:instead of|rather than|no longer|not|from|replac\\w*|drop\\w*)\\s+(?:\\S+\\s+){0,2}?${escape(old)}\\b`, 'i');
  const candidates = [...(slot !== undefined ? store.withSlot(ns, slot) : []), ...store.search(old, [ns], 50, true).map((h) => h.memory)];
  return candidates.filter((m) => {
    if (m.id === exclude || !isActive(m) || leftBehind.test(m.content)) return false;
    // A phrase of two words or more found in a memory is what it is about; one word must be its value.
    const have = new Set(terms(want.length >= 2 ? m.content : (m.slot?.value ?? m.content)));
    return want.every((t) => have.has(t));
  });
}

function reinforce(store: MemoryStore, dup: Memory, inc: Incoming): MergeResult {
  // Re-ingesting what was already counted (a crash before the cursor moved) changes nothing.
  if (inc.source && hasSource(dup, inc.source)) return { kind: 'unchanged', memory: dup, superseded: [] };
  const memory = store.update(dup.id, (m) => {
    m.reinforcements += 1;
    if (inc.at > m.lastSeenAt) m.lastSeenAt = inc.at;
    m.importance = Math.max(m.importance, inc.importance);
    m.stable = m.stable || inc.stable;
    if (inc.source) m.sources.push(inc.source);
  });
  return { kind: 'reinforced', memory, superseded: [] };
}

function supersede(store: MemoryStore, old: Memory, by: Memory, at: string): Memory {
  return store.update(old.id, (x) => {
    x.supersededBy = by.id;
    x.supersededAt = at;
  });
}

export function merge(store: MemoryStore, inc: Incoming): MergeResult {
  const slot = inc.slot ?? slotOf(inc.text);
  const dup = findDuplicate(store, inc.namespace, inc.text, slot);
  if (dup) return reinforce(store, dup, inc);
  const memory: Memory = {
    id: newMemoryId(),
    content: inc.text,
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
    ...(slot !== undefined && { slot }),
  };
  // Only what was true before the change is retired; two values said in one session both stand.
  const older = (m: Memory) => m.createdAt <= inc.at && !m.pinned && !editedSince(m, inc.at) && !sharesSession(m, inc.source);
  const retire = new Map<string, Memory>();
  const change = marksChange(inc.text);
  if (slot !== undefined) {
    // "Switch to Vitest from now on", said of no part in particular, changes the tool of that kind
    // wherever the project named one ("the unit tests run with Jest").
    const wide = change && slot.subject === 'project' && changeable(slot);
    const same = wide ? store.list(inc.namespace).filter((m) => isActive(m) && m.slot?.attribute === slot.attribute) : store.withSlot(inc.namespace, slot);
    for (const m of same) {
      // A choice that changed, a number that did, or a new value said as a change ("X now runs as Y").
      if (
        older(m) &&
        m.slot !== undefined &&
        m.slot.value !== slot.value &&
        (changeable(slot) || numberChanged(m.slot, slot) || (change && samePolarity(m.slot, slot)))
      )
        retire.set(m.id, m);
    }
  }
  for (const old of inc.replaces ?? [])
    for (const m of aboutOld(store, inc.namespace, old, memory.id, slot))
      if (m.createdAt <= inc.at && !m.pinned && !editedSince(m, inc.at)) retire.set(m.id, m);
  store.add(memory);
  const superseded = [...retire.values()].map((m) => supersede(store, m, memory, inc.at));
  return { kind: 'added', memory, superseded };
}
