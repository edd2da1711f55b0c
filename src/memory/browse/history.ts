/**
 * A memory's history, put together from what is recorded: its sources (the session it came from,
 * then each session that reinforced it), the person's logged actions (edits, pins, forgets,
 * restores), its archive and supersession marks, the memories it superseded (found by their link
 * to it), every dream report that names it, and what the caller adds (rejections, from the injection
 * ledger). Oldest first; events with no known time last.
 */
import type { DreamReport } from '../../api/dream.js';
import type { Memory, SessionRecord } from '../../api/memory.js';
import type { HistoryEvent } from '../../api/memory-browse.js';
import type { MemoryStore } from '../store/store.js';

function fromDreams(m: Memory, reports: DreamReport[], textOf: (id: string) => string | null): HistoryEvent[] {
  const out: HistoryEvent[] = [];
  const at = (r: DreamReport) => r.startedAt;
  for (const r of reports) {
    if (r.dryRun || r.error !== undefined) continue;
    const dreamId = r.id;
    for (const x of r.merges) {
      if (x.merged.includes(m.id)) out.push({ at: at(r), kind: 'merged', memoryId: x.into, text: textOf(x.into), reason: x.reason, dreamId });
      if (x.into === m.id) for (const id of x.merged) out.push({ at: at(r), kind: 'absorbed', memoryId: id, text: textOf(id), reason: x.reason, dreamId });
    }
    for (const s of r.supersessions) {
      if (s.id === m.id) out.push({ at: at(r), kind: 'superseded', memoryId: s.by, text: textOf(s.by), reason: s.reason, dreamId });
      if (s.by === m.id) out.push({ at: at(r), kind: 'supersedes', memoryId: s.id, text: textOf(s.id), reason: s.reason, dreamId });
    }
    for (const a of r.archives) if (a.id === m.id) out.push({ at: at(r), kind: 'archived', reason: a.reason, dreamId });
    for (const k of r.masked)
      if (k.id === m.id) out.push({ at: at(r), kind: 'masked', reason: k.dropped ? 'it was only a secret' : 'a secret in it was masked', dreamId });
  }
  return out;
}

export function memoryHistory(store: MemoryStore, id: string, sessions: SessionRecord[], reports: DreamReport[], more: HistoryEvent[] = []): HistoryEvent[] {
  const m = store.mustGet(id);
  const textOf = (other: string) => store.get(other)?.content ?? null;
  const lastAt = new Map<string, string>();
  for (const s of sessions) if (s.lastMessageAt !== undefined && (lastAt.get(s.sessionId) ?? '') < s.lastMessageAt) lastAt.set(s.sessionId, s.lastMessageAt);

  const [first, ...later] = m.sources;
  const events: HistoryEvent[] = [
    { at: m.createdAt, kind: 'created', origin: m.origin, ...(first !== undefined && { sessionId: first.sessionId, messageIds: first.messageIds }) },
  ];
  for (const s of later) {
    const at = lastAt.get(s.sessionId);
    events.push({ ...(at !== undefined && { at }), kind: 'reinforced', sessionId: s.sessionId, messageIds: s.messageIds });
  }
  for (const e of m.events ?? [])
    events.push({ at: e.at, kind: e.kind, ...(e.from !== undefined && { from: e.from }), ...(e.to !== undefined && { to: e.to }) });
  const logged = (kind: string, at: string | undefined) => (m.events ?? []).some((e) => e.kind === kind && e.at === at);
  const dreamt = fromDreams(m, reports, textOf);
  events.push(...dreamt);
  const byDream = (kind: HistoryEvent['kind'], other?: string) => dreamt.some((e) => e.kind === kind && (other === undefined || e.memoryId === other));

  if (m.archivedAt !== undefined && !logged('forgotten', m.archivedAt) && !byDream('archived') && !byDream('masked'))
    events.push({ at: m.archivedAt, kind: 'archived', ...(m.archiveReason !== undefined && { reason: m.archiveReason }) });
  if (m.restoredAt !== undefined && !logged('restored', m.restoredAt)) events.push({ at: m.restoredAt, kind: 'restored' });
  if (m.supersededBy !== undefined && !byDream('superseded', m.supersededBy) && !byDream('merged', m.supersededBy))
    events.push({
      ...(m.supersededAt !== undefined && { at: m.supersededAt }),
      kind: 'superseded',
      memoryId: m.supersededBy,
      text: textOf(m.supersededBy),
      ...(m.archiveReason !== undefined && { reason: m.archiveReason }),
    });
  for (const ns of store.namespaces())
    for (const x of store.list(ns))
      if (x.supersededBy === m.id && !byDream('supersedes', x.id) && !byDream('absorbed', x.id))
        events.push({ ...(x.supersededAt !== undefined && { at: x.supersededAt }), kind: 'supersedes', memoryId: x.id, text: x.content });

  events.push(...more);
  // Stable: events at one time keep the order they were put together in (created before what follows it).
  return events
    .map((e, i) => ({ e, i }))
    .sort((a, b) => (a.e.at ?? '\uffff').localeCompare(b.e.at ?? '\uffff') || a.i - b.i)
    .map((x) => x.e);
}
