/**
 * Gather: new signal from the sessions since the last dream. A memory restated (restate.ts) in
 * sessions it has no source from gains reinforcement and importance; topics the user kept
 * raising across sessions that no memory covers are proposed in the report.
 */
import type { Memory } from '../api/memory.js';
import { type Episode, isActive, type MemoryStore, type Namespace, terms } from '../memory/index.js';
import { restates } from './restate.js';
import type { Plan } from './plan.js';

const TOPIC_SESSIONS = 3;
const MAX_PROPOSALS = 10;

function namespacesOf(e: Episode): Namespace[] {
  return e.project ? [{ scope: 'user' }, { scope: 'project', project: e.project }] : [{ scope: 'user' }];
}

export function gather(store: MemoryStore, episodes: Episode[], plan: Plan): void {
  const sessionsPerMemory = new Map<string, Set<string>>();
  /** One episode per session: its project decides the namespaces a proposal is checked against. */
  const firstOf = new Map<string, Episode>();
  const topicSessions = new Map<string, Set<string>>();
  for (const e of episodes) {
    if (e.role !== 'user' || e.kind !== 'text') continue;
    if (!firstOf.has(e.sessionId)) firstOf.set(e.sessionId, e);
    const sentences = e.text.split(/(?<=[.!?;])\s+|\n+/).filter((x) => x.trim().length > 0);
    for (const hit of store.search(e.text.slice(0, 600), namespacesOf(e), 3, true)) {
      const m: Memory = hit.memory;
      if (!isActive(m) || m.sources.some((s) => s.sessionId === e.sessionId)) continue;
      // Said again when one sentence of the message says the same thing in other words (restate.ts).
      if (sentences.some((x) => restates(m.content, x))) {
        const set = sessionsPerMemory.get(m.id) ?? new Set<string>();
        set.add(e.sessionId);
        sessionsPerMemory.set(m.id, set);
      }
    }
    const t = terms(e.text);
    for (let i = 0; i + 1 < t.length; i++) {
      const topic = `${t[i]} ${t[i + 1]}`;
      if (t[i] === t[i + 1]) continue;
      const set = topicSessions.get(topic) ?? new Set<string>();
      set.add(e.sessionId);
      topicSessions.set(topic, set);
    }
  }
  for (const [id, sessions] of sessionsPerMemory) {
    plan.reinforce.set(id, { sessions: sessions.size, sources: [...sessions].map((sessionId) => ({ sessionId, messageIds: [] })) });
  }
  const frequent = [...topicSessions].filter(([, s]) => s.size >= TOPIC_SESSIONS).sort((a, b) => b[1].size - a[1].size);
  for (const [topic, sessions] of frequent) {
    if (plan.proposals.length >= MAX_PROPOSALS) break;
    const anyEpisode = firstOf.get([...sessions][0] ?? '');
    const covered = anyEpisode
      ? store.search(topic, namespacesOf(anyEpisode), 5, true).some((h) => {
          const have = new Set(terms(h.memory.content));
          return topic.split(' ').every((w) => have.has(w));
        })
      : true;
    if (!covered) plan.proposals.push({ topic, sessions: sessions.size });
  }
}
