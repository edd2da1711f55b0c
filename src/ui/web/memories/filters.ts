/** The memories list's filters, as they are written in its URL and asked of `GET /v1/memories`. */
import type { MemoryScope, MemoryType } from '../../../api/memory.js';
import { hrefWith, pageOf } from '../query.js';
import { at } from '../base.js';

export const PAGE_SIZE = 50;
export const TYPES = ['instruction', 'preference', 'fact', 'decision', 'procedure', 'learning', 'state', 'note'] as const satisfies readonly MemoryType[];
export const SCOPES = ['user', 'project', 'team'] as const satisfies readonly MemoryScope[];
export const ORIGINS = ['heuristic', 'model', 'manual', 'import'] as const;

/** `ALL`: every namespace, active and archived (the API's `all=1`). */
export const ALL = '*';

export interface MemoryFilters {
  /** A project directory; '' for your own memories only; ALL; undefined: the most recently active project. */
  project: string | undefined;
  state: 'active' | 'archived';
  q: string;
  type: string;
  scope: string;
  origin: string;
  pinned: boolean;
  page: number;
}

const oneOf = <T extends string>(list: readonly T[], v: string | undefined): T | '' => (list.includes(v as T) ? (v as T) : '');

export function readFilters(q: Record<string, string>): MemoryFilters {
  return {
    project: q.project,
    state: q.state === 'archived' ? 'archived' : 'active',
    q: q.q ?? '',
    type: oneOf(TYPES, q.type),
    scope: oneOf(SCOPES, q.scope),
    origin: oneOf(ORIGINS, q.origin),
    pinned: q.pinned === '1',
    page: pageOf(q.page),
  };
}

export function hrefOf(f: MemoryFilters): string {
  // An explicit '' (yours only) is kept in the URL: absent means "the latest project".
  const path = hrefWith(at('/memories'), { ...f, project: undefined }, { state: 'active', page: 0 });
  if (f.project === undefined) return path;
  return `${path}${path.includes('?') ? '&' : '?'}project=${encodeURIComponent(f.project)}`;
}

/** The query of `GET /v1/memories` for these filters, `project` resolved. */
export function listQuery(f: MemoryFilters, project: string) {
  return {
    ...(project === ALL ? { all: '1' } : { project: project || undefined, archived: f.state === 'archived' ? '1' : undefined }),
    q: f.q || undefined,
    type: f.type || undefined,
    scope: f.scope || undefined,
    origin: f.origin || undefined,
    pinned: f.pinned ? '1' : undefined,
    order: f.q ? undefined : 'recent',
    offset: f.page * PAGE_SIZE,
    limit: PAGE_SIZE,
  } as const;
}
