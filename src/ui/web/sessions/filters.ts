/** The sessions list's filters in its URL, and the query of `GET /v1/sessions` they make. */
import { hrefWith, pageOf } from '../query.js';
import { at } from '../base.js';

export const PAGE_SIZE = 50;

export interface SessionFilters {
  /** A project directory; '' for every project. */
  project: string;
  q: string;
  page: number;
}

export const readFilters = (q: Record<string, string>): SessionFilters => ({ project: q.project ?? '', q: q.q ?? '', page: pageOf(q.page) });

export const hrefOf = (f: SessionFilters): string => hrefWith(at('/sessions'), { ...f }, { page: 0 });

export function listQuery(f: SessionFilters) {
  return {
    project: f.project || undefined,
    q: f.q || undefined,
    // Latest first; a search ranks by match.
    order: f.q ? undefined : 'recent',
    offset: f.page * PAGE_SIZE,
    limit: PAGE_SIZE,
  } as const;
}
