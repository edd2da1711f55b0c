/** Every namespace at a glance (the dashboard's project list): memory counts, sessions and the last activity. */
import type { Memory, SessionRecord } from '../../api/memory.js';
import type { ProjectsResponse } from '../../api/memory-browse.js';
import { isActive } from '../store/model.js';
import type { MemoryStore } from '../store/store.js';

interface Counts {
  active: number;
  archived: number;
  lastActivity: string | null;
}

const later = (a: string | null, b: string | undefined): string | null => (b !== undefined && (a === null || b > a) ? b : a);

function count(memories: readonly Memory[]): Counts {
  const c: Counts = { active: 0, archived: 0, lastActivity: null };
  for (const m of memories) {
    if (isActive(m)) c.active++;
    else c.archived++;
    c.lastActivity = later(c.lastActivity, m.lastSeenAt);
  }
  return c;
}

export function projects(store: MemoryStore, sessions: SessionRecord[]): ProjectsResponse {
  const out = new Map<string, ProjectsResponse['projects'][number]>();
  const teams: ProjectsResponse['teams'] = [];
  let user: Counts = { active: 0, archived: 0, lastActivity: null };
  for (const ns of store.namespaces()) {
    const c = count(store.list(ns));
    if (ns.scope === 'user') user = c;
    else if (ns.scope === 'team') teams.push({ team: ns.team, ...c });
    else out.set(ns.project, { project: ns.project, sessions: 0, ...c });
  }
  for (const s of sessions) {
    if (s.project === null || s.agentId !== undefined) continue;
    const p = out.get(s.project) ?? { project: s.project, sessions: 0, active: 0, archived: 0, lastActivity: null };
    p.sessions++;
    p.lastActivity = later(p.lastActivity, s.lastMessageAt ?? s.ingestedAt);
    out.set(s.project, p);
  }
  const byActivity = (a: { lastActivity: string | null }, b: { lastActivity: string | null }) => (b.lastActivity ?? '').localeCompare(a.lastActivity ?? '');
  return { projects: [...out.values()].sort(byActivity), user, teams: teams.sort(byActivity) };
}
