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

function* candidates(store: MemoryStore, opts: RecallOptions, matched: Map<string, number>): Generator<{ memory: Memory; score: number }> {
  for (const ns of opts.namespaces) {
    for (const m of store.list(ns)) {
      if (!isActive(m) || relevance(m, opts.nowMs) < PRUNE_THRESHOLD) continue;
      const base = baseScore(m, opts.nowMs);
      // With a query, a match outranks a merely important memory; standing instructions still show.
      const score = opts.query ? base * (0.25 + (matched.get(m.id) ?? 0)) : base;
      yield { memory: m, score };
    }
  }
}

export function recall(store: MemoryStore, opts: RecallOptions): RecallResponse {
  const query = opts.query?.trim() || undefined;
  const matched = new Map<string, number>();
  if (query) {
    const hits = store.search(query, opts.namespaces, 200);
    const best = hits[0]?.score ?? 1;
    for (const h of hits) matched.set(h.memory.id, h.score / best);
  }
  const room = Math.max(0, opts.budget - FRAME_TOKENS);
  const maxLines = Math.max(1, Math.ceil(room / 8));
  let considered = 0;
  const counted = (function* () {
    for (const c of candidates(store, { ...opts, query }, matched)) {
      considered++;
      yield c;
    }
  })();
  const ranked: RecallItem[] = topK(counted, maxLines).map((c) => memoryItem(c.memory, c.score));
  if (query && opts.episodes) {
    // Past conversation fills in below the memories that matched.
    const floor = Math.min(...ranked.filter((r) => matched.has(r.id)).map((r) => r.score), 0.25);
    const hits = opts.episodes.search(query, { project: opts.project ?? undefined, limit: maxLines });
    const best = hits[0]?.score ?? 1;
    for (const h of hits) {
      const text = clipLine(`${h.speaker ? `${h.speaker}: ` : ''}${h.text}`);
      ranked.push({
        kind: 'episode',
        id: `${h.sessionId}#${h.messageId}`,
        text,
        type: 'episode',
        scope: 'session',
        score: floor * 0.99 * (h.score / best),
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
