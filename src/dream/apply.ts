/** Applies a dream's plan to the store. Nothing is deleted: everything taken out stays, marked. */
import type { Memory } from '../api/memory.js';
import { applyDecisions, type MemoryStore } from '../memory/index.js';
import type { Plan } from './plan.js';

const IMPORTANCE_PER_SESSION = 0.05;

function addSources(m: Memory, more: Memory['sources']): void {
  for (const s of more) {
    const same = m.sources.find((x) => x.sessionId === s.sessionId);
    if (!same) m.sources.push({ sessionId: s.sessionId, messageIds: [...s.messageIds] });
    else for (const id of s.messageIds) if (!same.messageIds.includes(id)) same.messageIds.push(id);
  }
}

export function applyPlan(store: MemoryStore, plan: Plan, nowIso: string): void {
  for (const [id, slot] of plan.slots) if (store.get(id) !== undefined) store.update(id, (m) => (m.slot = slot));
  for (const [id, r] of plan.reinforce) {
    store.update(id, (m) => {
      m.reinforcements += r.sessions;
      m.importance = Math.min(1, m.importance + IMPORTANCE_PER_SESSION * r.sessions);
      addSources(m, r.sources);
    });
  }
  for (const merge of plan.merges) {
    const members = merge.merged.flatMap((id) => store.get(id) ?? []);
    store.update(merge.into, (m) => {
      // The text stays as it was said; each merged statement was a sighting of its own: reinforcements add up, plus one each.
      m.reinforcements += members.reduce((n, x) => n + x.reinforcements + 1, 0);
      m.importance = Math.max(m.importance, ...members.map((x) => x.importance));
      m.stable = m.stable || members.some((x) => x.stable);
      m.pinned = m.pinned || members.some((x) => x.pinned);
      for (const x of members) {
        if (x.createdAt < m.createdAt) m.createdAt = x.createdAt;
        if (x.lastSeenAt > m.lastSeenAt) m.lastSeenAt = x.lastSeenAt;
        addSources(m, x.sources);
      }
    });
    for (const x of members) {
      store.update(x.id, (m) => {
        m.supersededBy = merge.into;
        m.supersededAt = nowIso;
        m.archiveReason = `merged into ${merge.into}: ${merge.reason}`;
      });
    }
  }
  for (const s of plan.supersede) {
    store.update(s.id, (m) => {
      m.supersededBy = s.by;
      m.supersededAt = s.at;
      m.archiveReason = s.reason;
    });
  }
  for (const k of plan.mask) {
    store.update(k.id, (m) => {
      if (k.text === null) {
        m.archivedAt = nowIso;
        m.archiveReason = 'it was only a secret';
        m.content = '[REDACTED]';
      } else {
        m.content = k.text;
      }
    });
  }
  for (const a of plan.archive) {
    store.update(a.id, (m) => {
      m.archivedAt = nowIso;
      m.archiveReason = a.reason;
    });
  }
  applyDecisions(store, plan.evidence, nowIso);
}
