/**
 * Recall: the memories that matter for a session, ranked, each on one short line, cut to a token
 * budget. Reading never touches `lastSeenAt`: only a fact reappearing in a session resets decay,
 * or everything recalled at every session start would never age.
 */
import type { Memory, RecallItem, RecallResponse } from '../api/memory.js';
import type { EpisodeStore } from './episodes.js';
import { baseScore, namespaceKey, PRUNE_THRESHOLD, relevance, type Namespace } from './model.js';
import type { MemoryStore } from './store.js';
import { estimateTokens } from '../llm/tokens.js';
import { TopK } from './top-k.js';

export const LINE_MAX = 240;
/** Tokens of the framing around the lines (headings, the closing note). */
const FRAME_TOKENS = 40;
/** "Recent sessions here": at most this many digests, within a quarter of the budget. */
export const DIGESTS_MAX = 3;
const DIGEST_SHARE = 0.25;
/** The digests' own heading. */
const DIGEST_HEADING_TOKENS = 6;

export interface RecallOptions {
  namespaces: Namespace[];
  project: string | null;
  query?: string | undefined;
  budget: number;
  nowMs: number;
  /** With a query, excerpts of past sessions may fill what memories leave (false: memories only). */
  episodes?: EpisodeStore | undefined;
  /** Digests of the project's recent sessions, most recent first. */
  digests?: RecallItem[] | undefined;
}

/** The digests that fit their share of the budget, most recent first. */
function takeDigests(digests: RecallItem[], budget: number): { items: RecallItem[]; tokens: number } {
  const room = Math.floor(budget * DIGEST_SHARE) - DIGEST_HEADING_TOKENS;
  const items: RecallItem[] = [];
  let tokens = 0;
  for (const d of digests) {
    if (items.length === DIGESTS_MAX) break;
    const item = { ...d, text: clipLine(d.text) };
    if (tokens + item.tokens > room) continue;
    items.push(item);
    tokens += item.tokens;
  }
  return { items, tokens: items.length > 0 ? tokens + DIGEST_HEADING_TOKENS : 0 };
}

function clipLine(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= LINE_MAX ? flat : `${flat.slice(0, LINE_MAX - 1)}…`;
}

function memoryItem(m: Memory, score: number): RecallItem {
  const text = clipLine(m.content);
  return { kind: 'memory', id: m.id, text, type: m.type, scope: m.scope, score, tokens: estimateTokens(text) + 3, sources: m.sources, at: m.lastSeenAt };
}

/** Standing instructions and preferences: recalled even when a query does not match them. */
const STANDING = new Set<Memory['type']>(['instruction', 'preference']);
/** With a query, a matching excerpt of a past session weighs a little less than a matching memory. */
const EPISODE_WEIGHT = 0.8;
/** With a query, what does not match only fills what the matches leave. */
const UNMATCHED_WEIGHT = 0.01;

const standingCache = new WeakMap<MemoryStore, { version: number; byNamespace: Map<string, Memory[]> }>();

/** The standing instructions and preferences of a namespace, cached until the store changes. */
function standingOf(store: MemoryStore, ns: Namespace): Memory[] {
  let cache = standingCache.get(store);
  if (!cache || cache.version !== store.version) {
    cache = { version: store.version, byNamespace: new Map() };
    standingCache.set(store, cache);
  }
  const key = namespaceKey(ns);
  let list = cache.byNamespace.get(key);
  if (!list) {
    list = store.list(ns).filter((m) => STANDING.has(m.type));
    cache.byNamespace.set(key, list);
  }
  return list;
}

/**
 * Scores: without a query, the base score; with one, the BM25 score of the match (scaled by the
 * memory's base), so memories and excerpts of past sessions rank on one scale, and unmatched
 * standing instructions follow. Other unmatched memories are not considered at all with a query.
 * A plain loop, no generators: it runs over every memory of the namespaces.
 */
function rank(store: MemoryStore, opts: RecallOptions, query: string | undefined, matched: Map<string, number>, top: TopK<Memory>): number {
  let considered = 0;
  // With a query only matches and standing memories count: no need to walk whole namespaces.
  const pools: (readonly Memory[])[] =
    query === undefined
      ? opts.namespaces.map((ns) => store.list(ns))
      : [...opts.namespaces.map((ns) => standingOf(store, ns).filter((m) => !matched.has(m.id))), [...matched.keys()].flatMap((id) => store.get(id) ?? [])];
  for (const pool of pools) {
    for (const m of pool) {
      if (m.archivedAt !== undefined || m.supersededBy !== undefined) continue;
      const hit = query === undefined ? undefined : matched.get(m.id);
      if (query !== undefined && hit === undefined && !STANDING.has(m.type)) continue;
      const rel = relevance(m, opts.nowMs);
      if (rel < PRUNE_THRESHOLD) continue;
      considered++;
      const base = baseScore(m, rel);
      top.offer(query === undefined ? base : hit !== undefined ? hit * (0.5 + 0.5 * Math.min(1, base)) : base * UNMATCHED_WEIGHT, m);
    }
  }
  return considered;
}

export function recall(store: MemoryStore, opts: RecallOptions): RecallResponse {
  const query = opts.query?.trim() || undefined;
  const matched = new Map<string, number>();
  if (query) for (const h of store.search(query, opts.namespaces, 200)) matched.set(h.memory.id, h.score);
  const room = Math.max(0, opts.budget - FRAME_TOKENS);
  const maxLines = Math.max(1, Math.ceil(room / 8));
  const top = new TopK<Memory>(maxLines);
  let considered = rank(store, opts, query, matched, top);
  const ranked: RecallItem[] = top.sorted().map((c) => memoryItem(c.item, c.score));
  if (query && opts.episodes) {
    for (const h of opts.episodes.search(query, { project: opts.project ?? undefined, limit: maxLines })) {
      const text = clipLine(`${h.speaker ? `${h.speaker}: ` : ''}${h.text}`);
      considered++;
      ranked.push({
        kind: 'episode',
        id: `${h.sessionId}#${h.messageId}`,
        text,
        type: 'episode',
        scope: 'session',
        score: h.score * EPISODE_WEIGHT,
        tokens: estimateTokens(text) + 6,
        sources: [{ sessionId: h.sessionId, messageIds: [h.messageId] }],
        ...(h.at !== undefined && { at: h.at }),
      });
    }
    ranked.sort((a, b) => b.score - a.score);
  }
  const digests = takeDigests(opts.digests ?? [], opts.budget);
  considered += opts.digests?.length ?? 0;
  const items: RecallItem[] = [];
  let tokens = FRAME_TOKENS + digests.tokens;
  for (const item of ranked) {
    if (tokens + item.tokens > opts.budget) continue;
    items.push(item);
    tokens += item.tokens;
  }
  items.push(...digests.items);
  return { project: opts.project, query: query ?? null, budget: opts.budget, tokens, considered, items };
}
