/**
 * Sessions for browsing: a project's, in an order, a page with the total; or a search of what was
 * said and done (the episodic index behind /v1/search) grouped by session, best session first.
 */
import type { SearchHit, SessionRecord } from '../../api/memory.js';
import type { SessionListQuery } from '../../api/memory-browse.js';
import type { EpisodeStore } from '../episodic/episodes.js';
import type { SessionRegistry } from '../sessions.js';

/** Hits a session search looks through: sessions past the best thousand hits are not worth a page. */
const SEARCH_HITS = 1000;
/** Hits shown per session, as the reason it matched. */
const HITS_PER_SESSION = 3;

export interface SessionPage {
  sessions: SessionRecord[];
  total: number;
  matches?: { sessionId: string; score: number; hits: SearchHit[] }[];
}

export function listSessions(registry: SessionRegistry, episodes: EpisodeStore, q: SessionListQuery, project: string | undefined): SessionPage {
  const page = <T>(xs: T[]) => xs.slice(q.offset ?? 0, q.limit === undefined ? undefined : (q.offset ?? 0) + q.limit);
  if (q.q === undefined) {
    const all = registry.list().filter((s) => project === undefined || s.project === project);
    if (q.order === 'recent') all.sort((a, b) => (b.lastMessageAt ?? '').localeCompare(a.lastMessageAt ?? ''));
    return { sessions: page(all), total: all.length };
  }
  const bySession = new Map<string, { sessionId: string; score: number; hits: SearchHit[] }>();
  for (const h of episodes.search(q.q, { project, limit: SEARCH_HITS })) {
    const g = bySession.get(h.sessionId) ?? { sessionId: h.sessionId, score: 0, hits: [] };
    g.score = Math.max(g.score, h.score);
    if (g.hits.length < HITS_PER_SESSION) g.hits.push(h);
    bySession.set(h.sessionId, g);
  }
  // A session's own file stands for it (its sidechains share its id); a session no longer registered is left out.
  const found = [...bySession.values()]
    .sort((a, b) => b.score - a.score)
    .flatMap((g) => {
      const s = registry.main(g.sessionId) ?? registry.list().find((x) => x.sessionId === g.sessionId);
      return s === undefined ? [] : [{ s, g }];
    });
  const shown = page(found);
  return { sessions: shown.map((x) => x.s), total: found.length, matches: shown.map((x) => x.g) };
}
