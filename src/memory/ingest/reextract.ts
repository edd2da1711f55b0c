/**
 * Before a transcript file is extracted again, what its earlier extraction left is taken back:
 * memories that came only from this file and that the person never touched are archived (kept,
 * restorable) as replaced by the re-extraction; memories with other sources only lose this file's
 * source. Memories the person pinned, wrote, imported, edited, restored or forgot stay as they are; what
 * they edited away does not come back.
 */
import type { Memory, Source } from '../../api/memory.js';
import { sameStatement } from '../store/merge.js';
import { isActive, namespaceKey, namespaceOf, type Namespace } from '../store/model.js';
import { normalize } from '../nlp/text.js';
import { slotOf } from '../store/slots.js';
import type { MemoryStore } from '../store/store.js';

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
  return (
    m.pinned || m.origin === 'manual' || m.origin === 'import' || m.restoredAt !== undefined || m.editedAt !== undefined || m.archiveReason === FORGOTTEN_REASON
  );
}

export interface Retraction {
  replaced: Memory[];
  detached: Memory[];
  /** Memories the person forgot that came from this file: the new extraction must not bring them back. */
  forgotten: Memory[];
  /** Texts the person edited away in memories from this file: the new extraction must not bring them back either. */
  editedAway: { namespace: Namespace; content: string }[];
}

export function retractFile(store: MemoryStore, file: FileMessages, nowIso: string): Retraction {
  const out: Retraction = { replaced: [], detached: [], forgotten: [], editedAway: [] };
  const candidates = store.namespaces().flatMap((ns) => store.list(ns).filter((m) => m.sources.some((s) => fromFile(s, file))));
  for (const m of candidates) {
    const only = m.sources.every((s) => fromFile(s, file));
    if (only && m.archiveReason === FORGOTTEN_REASON) out.forgotten.push(m);
    for (const e of m.events ?? []) if (e.kind === 'edited' && e.from !== undefined) out.editedAway.push({ namespace: namespaceOf(m), content: e.from });
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

const sameNamespace = (a: Namespace, b: Namespace) => namespaceKey(a) === namespaceKey(b);

/** A candidate repeats a memory the person forgot, or a text they edited away (from this file): it stays out. */
export function keptOut(r: Retraction, ns: Namespace, content: string): boolean {
  if (r.forgotten.length === 0 && r.editedAway.length === 0) return false;
  const slot = slotOf(content);
  return (
    r.forgotten.some((m) => sameNamespace(namespaceOf(m), ns) && sameStatement(m, content, slot)) ||
    r.editedAway.some((e) => sameNamespace(e.namespace, ns) && normalize(e.content) === normalize(content))
  );
}
