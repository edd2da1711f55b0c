/**
 * Recall: the memories that matter for a session, ranked, each on one short line, cut to a token
 * budget. Reading never touches `lastSeenAt`: only a fact reappearing in a session resets decay,
 * or everything recalled at every session start would never age.
 */
import type { Memory, RecallItem, RecallResponse } from '../api/memory.js';
import type { EpisodeStore } from './episodes.js';
import { baseScore, isActive, PRUNE_THRESHOLD, relevance, type Namespace } from './model.js';
import type { MemoryStore } from './store.js';
import { estimateTokens } from './text.js';

export const LINE_MAX = 240;
/** Tokens of the framing around the lines (headings, the closing note). */
const FRAME_TOKENS = 40;

export interface RecallOptions {
  namespaces: Namespace[];
  project: string | null;
  query?: string | undefined;
  budget: number;
  nowMs: number;
  /** With a query, excerpts of past sessions may fill what memories leave (false: memories only). */
  episodes?: EpisodeStore | undefined;
}

function clipLine(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= LINE_MAX ? flat : `${flat.slice(0, LINE_MAX - 1)}…`;
}

function memoryItem(m: Memory, score: number): RecallItem {
  const text = clipLine(m.content);
  return { kind: 'memory', id: m.id, text, type: m.type, scope: m.scope, score, tokens: estimateTokens(text) + 3, sources: m.sources, at: m.lastSeenAt };
}

/** Keeps the `k` best by score without sorting everything (100,000 memories, a few hundred lines). */
function topK<T extends { score: number }>(items: Iterable<T>, k: number): T[] {
  const heap: T[] = [];
  const down = (i: number) => {
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < heap.length && (heap[l]?.score ?? 0) < (heap[m]?.score ?? 0)) m = l;
      if (r < heap.length && (heap[r]?.score ?? 0) < (heap[m]?.score ?? 0)) m = r;
      if (m === i) return;
      [heap[i], heap[m]] = [heap[m] as T, heap[i] as T];
      i = m;
    }
  };
  for (const item of items) {
    if (heap.length < k) {
      heap.push(item);
      for (let i = heap.length - 1; i > 0; ) {
        const p = (i - 1) >> 1;
        if ((heap[p]?.score ?? 0) <= item.score) break;
        [heap[i], heap[p]] = [heap[p] as T, heap[i] as T];
        i = p;
      }
    } else if (item.score > (heap[0]?.score ?? 0)) {
      heap[0] = item;
      down(0);
    }
  }
  return heap.sort((a, b) => b.score - a.score);
}

/** Standing instructions and preferences: recalled even when a query does not match them. */
const STANDING = new Set<Memory['type']>(['instruction', 'preference']);
/** With a query, a matching excerpt of a past session weighs a little less than a matching memory. */
const EPISODE_WEIGHT = 0.8;
/** With a query, what does not match only fills what the matches leave. */
const UNMATCHED_WEIGHT = 0.01;

/**
 * Scores: without a query, the base score; with one, the BM25 score of the match (scaled by the
 * memory's base), so memories and excerpts of past sessions rank on one scale, and unmatched
 * standing instructions follow. Other unmatched memories are not considered at all with a query.
 */
function* candidates(store: MemoryStore, opts: RecallOptions, query: string | undefined, matched: Map<string, number>): Generator<{ memory: Memory; score: number }> {
  for (const ns of opts.namespaces) {
    for (const m of store.list(ns)) {
      if (!isActive(m)) continue;
      const hit = matched.get(m.id);
      if (query !== undefined && hit === undefined && !STANDING.has(m.type)) continue;
      const rel = relevance(m, opts.nowMs);
      if (rel < PRUNE_THRESHOLD) continue;
      const base = baseScore(m, rel);
      if (query === undefined) yield { memory: m, score: base };
      else if (hit !== undefined) yield { memory: m, score: hit * (0.5 + 0.5 * Math.min(1, base)) };
      else yield { memory: m, score: base * UNMATCHED_WEIGHT };
    }
  }
}

export function recall(store: MemoryStore, opts: RecallOptions): RecallResponse {
  const query = opts.query?.trim() || undefined;
  const matched = new Map<string, number>();
  if (query) for (const h of store.search(query, opts.namespaces, 200)) matched.set(h.memory.id, h.score);
  const room = Math.max(0, opts.budget - FRAME_TOKENS);
  const maxLines = Math.max(1, Math.ceil(room / 8));
  let considered = 0;
  const counted = (function* () {
    for (const c of candidates(store, opts, query, matched)) {
      considered++;
      yield c;
    }
  })();
  const ranked: RecallItem[] = topK(counted, maxLines).map((c) => memoryItem(c.memory, c.score));
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
  const items: RecallItem[] = [];
  let tokens = FRAME_TOKENS;
  for (const item of ranked) {
    if (tokens + item.tokens > opts.budget) continue;
    items.push(item);
    tokens += item.tokens;
  }
  return { project: opts.project, query: query ?? null, budget: opts.budget, tokens, considered, items };
}
