/**
 * Before a transcript file is extracted again, what its earlier extraction left is taken back:
 * memories that came only from this file and that the person never touched are archived (kept,
 * restorable) as replaced by the re-extraction; memories with other sources only lose this file's
 * source. Memories the person pinned, wrote, imported, restored or forgot stay as they are.
 */
import type { Memory, Source } from '../api/memory.js';
import { sameStatement } from './merge.js';
import { isActive, namespaceOf, type Namespace } from './model.js';
import { slotOf } from './slots.js';
import type { MemoryStore } from './store.js';

export const REPLACED_REASON = 'replaced by re-extraction';
export const FORGOTTEN_REASON = 'forgotten by the user';

export interface FileMessages {
  sessionId: string;
  /** Every message id the file holds (a subagent file shares its session id with its parent). */
  ids: ReadonlySet<string>;
}

const fromFile = (s: Source, f: FileMessages) => s.sessionId === f.sessionId && s.messageIds.every((id) => f.ids.has(id));

/** The person acted on it: it is theirs now, not the extractor's. */
function touched(m: Memory): boolean {
  return m.pinned || m.origin === 'manual' || m.origin === 'import' || m.restoredAt !== undefined || m.archiveReason === FORGOTTEN_REASON;
}

export interface Retraction {
  replaced: Memory[];
  detached: Memory[];
  /** Memories the person forgot that came from this file: the new extraction must not bring them back. */
  forgotten: Memory[];
}

export function retractFile(store: MemoryStore, file: FileMessages, nowIso: string): Retraction {
  const out: Retraction = { replaced: [], detached: [], forgotten: [] };
  const candidates = store.namespaces().flatMap((ns) => store.list(ns).filter((m) => m.sources.some((s) => fromFile(s, file))));
  for (const m of candidates) {
    const only = m.sources.every((s) => fromFile(s, file));
    if (only && m.archiveReason === FORGOTTEN_REASON) out.forgotten.push(m);
    if (only && touched(m)) continue;
    if (only) {
      if (!isActive(m)) continue; // archived or superseded by a dream: its history stays as it is
      out.replaced.push(
        store.update(m.id, (x) => {
          x.archivedAt = nowIso;
          x.archiveReason = REPLACED_REASON;
        }),
      );
      continue;
    }
    out.detached.push(
      store.update(m.id, (x) => {
        const before = x.sources.length;
        x.sources = x.sources.filter((s) => !fromFile(s, file));
        x.reinforcements = Math.max(0, x.reinforcements - (before - x.sources.length));
      }),
    );
  }
  // What only a replaced memory had superseded holds again, until the new extraction says otherwise.
  const replaced = new Set(out.replaced.map((m) => m.id));
  if (replaced.size > 0) {
    for (const ns of store.namespaces()) {
      for (const m of store.list(ns)) {
        if (m.supersededBy === undefined || !replaced.has(m.supersededBy)) continue;
        store.update(m.id, (x) => {
          delete x.supersededBy;
          delete x.supersededAt;
        });
      }
    }
  }
  return out;
}

/** A candidate repeats a memory the person forgot (from this file): it stays forgotten. */
export function repeatsForgotten(forgotten: Memory[], ns: Namespace, content: string): boolean {
  if (forgotten.length === 0) return false;
  const slot = slotOf(content);
  return forgotten.some((m) => {
    const where = namespaceOf(m);
    return (
      where.scope === ns.scope && (where.scope !== 'project' || (ns.scope === 'project' && where.project === ns.project)) && sameStatement(m, content, slot)
    );
  });
}
