/** Where a memory lives: the user's namespace, one per project, one per team. */
import type { Memory } from '../../api/memory.js';

export type Namespace = { scope: 'user' } | { scope: 'project'; project: string } | { scope: 'team'; team: string };

export function namespaceKey(ns: Namespace): string {
  switch (ns.scope) {
    case 'user':
      return 'user';
    case 'project':
      return `project:${ns.project}`;
    case 'team':
      return `team:${ns.team}`;
  }
}

export function namespaceOf(m: Pick<Memory, 'scope' | 'project' | 'team'>): Namespace {
  if (m.scope === 'project' && m.project !== undefined) return { scope: 'project', project: m.project };
  if (m.scope === 'team' && m.team !== undefined) return { scope: 'team', team: m.team };
  return { scope: 'user' };
}
