/** Memory rules that do not depend on storage: ids, decay, ranking weights, namespaces. */
import { randomBytes } from 'node:crypto';
import type { Memory } from '../api/memory.js';

export const HALF_LIFE_DAYS = 30;
/** Below this share of its base a decaying memory is never recalled, and the dream archives it. */
export const PRUNE_FACTOR = 0.1;
const DAY_MS = 86_400_000;

export function newMemoryId(): string {
  return `m${randomBytes(6).toString('hex')}`;
}

/** How much of its base a memory keeps: `0.5^(days since lastSeenAt / 30)`; stable and pinned ones keep all of it. */
export function decay(m: Pick<Memory, 'stable' | 'pinned' | 'lastSeenAt'>, nowMs: number): number {
  if (m.stable || m.pinned) return 1;
  const days = Math.max(0, (nowMs - Date.parse(m.lastSeenAt)) / DAY_MS);
  return 0.5 ** (days / HALF_LIFE_DAYS);
}

/** ARCHITECTURE.md: `base × 0.5^(days since lastSeenAt / 30)`; stable and pinned memories keep `base`. */
export function relevance(m: Pick<Memory, 'importance' | 'stable' | 'pinned' | 'lastSeenAt'>, nowMs: number): number {
  return m.importance * decay(m, nowMs);
}

/** Rank of a memory without a query: its decayed relevance, nudged by how often it was seen and by a pin. */
export function baseScore(m: Memory, rel: number): number {
  const boost = 1 + 0.1 * Math.log2(1 + m.reinforcements) + (m.pinned ? 0.5 : 0);
  return rel * boost;
}

export const isActive = (m: Memory): boolean => m.archivedAt === undefined && m.supersededBy === undefined;

/** Where a memory lives: the user's namespace, one per project, one per team. */
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

/** The person edited it after (or when) `iso` was said: a statement from then never replaces their words. */
export const editedSince = (m: Pick<Memory, 'editedAt'>, iso: string): boolean => m.editedAt !== undefined && m.editedAt >= iso;
