/**
 * Recall: the memories that matter for a session, best first, filling the token budget down to
 * the ranker's calibrated floor (select.ts: one line per slot, one per wording), then the
 * digests of the project's recent sessions in their share. Items are whole memories, never cut.
 * Reading never touches `lastSeenAt`: only a fact reappearing in a session resets decay, or
 * everything recalled at every session start would never age.
 */
import type { Memory, RecallItem, RecallResponse } from '../../api/memory.js';
import { NO_ACTIVITY, type Activity, type ProjectClock } from '../store/activity.js';
import type { EpisodeStore } from '../episodic/episodes.js';
import { clocksOf, graceOf, rankOf, type Namespace } from '../store/model.js';
import type { MemoryStore } from '../store/store.js';
import { estimateTokens } from '../../llm/tokens.js';
import { rankFloor } from '../rank/score.js';
import { DIGEST_SHARE, FRAME_TOKENS, ITEM_FRAME_TOKENS, STATE_HEADING_TOKENS } from './budget.js';
import { fillBudget, type Offer } from './select.js';
import { TopK } from '../../sys/top-k.js';
import { DIGESTS_MAX } from '../digest/recent.js';
import { activePool, standingPool, type Pool } from './pools.js';
import { dedupeKey } from '../nlp/tidy.js';
import { messageKey, recordSays, type Said } from './echo.js';
import { slotOf, sourcesOf, wordingOf } from './said.js';

/** Sources given with each recalled memory. */
const SOURCES_SHOWN = 3;
/** The digests' own heading. */
const DIGEST_HEADING_TOKENS = 6;
/** A digest line longer than this is clipped (it is a summary of a session, not someone's words). */
const DIGEST_LINE_MAX = 400;

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
  /** The project's current state (the agent's record), already cut to its share of the budget. */
  state?: RecallItem[] | undefined;
  /** What the state's lines say, piece by piece (a line of the record may hold a session's several pieces). */
  stateSays?: readonly string[] | undefined;
  /** The projects' sessions: what ages a memory (store/model.ts `decay`). */
  activity?: Activity | undefined;
  /** The state of the work as the person put it that the agent's record says was since done (memory/state). */
  done?: ((m: Memory) => boolean) | undefined;
  /** Items never offered: rejected in this project and not reinforced since (inject/ledger.ts). */
  exclude?: ((id: string, reinforcements: number | undefined) => boolean) | undefined;
  /** Narrows an answer to a caller's own test before the budget is filled (prompt-time recall). */
  within?: RecallWithin | undefined;
}

/** A caller's say in one answer: what it can use, and what the reader already has (an excerpt repeating that is left out too). */
export interface RecallWithin {
  keep: (item: RecallItem) => boolean;
  had: readonly Said[];
}

/** The digests that fit their share of the budget, most recent first. */
function takeDigests(digests: RecallItem[], budget: number): { items: RecallItem[]; tokens: number } {
  const room = Math.floor(budget * DIGEST_SHARE) - DIGEST_HEADING_TOKENS;
  const items: RecallItem[] = [];
  let tokens = 0;
  for (const d of digests) {
    if (items.length === DIGESTS_MAX) break;
    const flat = d.text.replace(/\s+/g, ' ').trim();
    const text = flat.length <= DIGEST_LINE_MAX ? flat : `${flat.slice(0, DIGEST_LINE_MAX - 1)}…`;
    const item = { ...d, text, tokens: estimateTokens(text) + ITEM_FRAME_TOKENS };
    if (tokens + item.tokens > room) continue;
    items.push(item);
    tokens += item.tokens;
  }
  return { items, tokens: items.length > 0 ? tokens + DIGEST_HEADING_TOKENS : 0 };
}

function memoryItem(m: Memory, score: number): RecallItem {
  const text = m.content.replace(/\s+/g, ' ').trim();
  return {
    kind: 'memory',
    id: m.id,
    text,
    type: m.type,
    scope: m.scope,
    score,
    // A mark to re-verify is part of the line the session reads.
    tokens: estimateTokens(text) + ITEM_FRAME_TOKENS + (m.reverify === undefined ? 0 : estimateTokens(m.reverify.reason) + 4),
    // The latest few: a block is read at every session start; `memories sources ID` has them all.
    sources: m.sources.slice(-SOURCES_SHOWN),
    at: m.lastSeenAt,
    origin: m.origin,
    ...(m.reverify !== undefined && { reverify: m.reverify.reason }),
  };
}

/** With a query, a matching excerpt of a past session weighs a little less than a matching memory. */
const EPISODE_WEIGHT = 0.8;
/** With a query, what does not match only fills what the matches leave. */
const UNMATCHED_WEIGHT = 0.01;

/** Candidates kept per line that fits: the budget filler skips duplicates and what does not fit, so it needs some to spare. */
const SLACK = 2;

/**
 * Offers: without a query, the best active memories at their rank (decayed relevance, sessions,
 * freshness) that reach the floor once given back the freshness of the project's next session;
 * with one, the BM25 score of the match scaled by that, and unmatched standing memories after. A
 * plain loop into a bounded heap: items are built only for the few hundred that can reach the
 * block, whatever the size of the store.
 */
function offers(
  store: MemoryStore,
  opts: RecallOptions,
  query: string | undefined,
  matched: Map<string, number>,
  room: number,
  floor: number,
  withSources: boolean,
): Offer<RecallItem>[] {
  // Each pool with its namespace's clock when it has one namespace (every pool without a query).
  const clockOf = clocksOf(opts.activity);
  const activity = opts.activity ?? NO_ACTIVITY;
  const pools: (Pool & { clock?: ProjectClock; matches: boolean })[] =
    query === undefined
      ? opts.namespaces.map((ns) => ({ ...activePool(store, ns), clock: activity.clock(ns), matches: false }))
      : [
          ...opts.namespaces.map((ns) => ({ ...standingPool(store, ns), clock: activity.clock(ns), matches: false })),
          { list: [...matched.keys()].flatMap((id) => store.get(id) ?? []).map((memory) => ({ memory, bound: Infinity })), most: Infinity, matches: true },
        ];
  const top = new TopK<Memory>(Math.max(8, Math.ceil(room / 8)) * SLACK);
  for (const { list, most: poolMost, clock, matches } of pools) {
    if (!matches && (query === undefined ? poolMost : poolMost * UNMATCHED_WEIGHT) < floor) continue;
    for (const { memory: m, bound } of list) {
      // Not ranked when even its best rank could not be kept: the tests below would skip it too.
      const most = query === undefined ? bound : bound * UNMATCHED_WEIGHT;
      if (!matches && (most < floor || most <= top.floor)) continue;
      const hit = query === undefined ? undefined : matched.get(m.id);
      // A standing memory the query matched is ranked once, in the matches' pool.
      if (!matches && hit !== undefined) continue;
      if (m.archivedAt !== undefined || m.supersededBy !== undefined || opts.exclude?.(m.id, m.reinforcements)) continue;
      const own = clock ?? clockOf(m);
      // The state of the work as the person put it holds until the project's next session: a later
      // state replaces it (the agent's record says where things stand then).
      if (m.type === 'state' && (own.after(Date.parse(m.lastSeenAt)) > 0 || opts.done?.(m) === true)) continue;
      const base = rankOf(m, opts.nowMs, own);
      if (base < 0) continue;
      // The floor is the ranker's, for what a session keeps: tested as if the project's next sessions
      // had not gone by (one kept at the floor would otherwise leave the block at the very next one).
      if (query === undefined && base / graceOf(m, own) < floor) continue;
      const score = query === undefined ? base : hit !== undefined ? hit * (0.5 + 0.5 * Math.min(1, base)) : base * UNMATCHED_WEIGHT;
      if (score <= top.floor) continue;
      top.offer(score, m);
    }
  }
  // Lines are built best first until there are twice as many tokens of them as the block holds:
  // what ranks below that could only fill a gap a better line left, and seldom does.
  const out: Offer<RecallItem>[] = [];
  let tokens = 0;
  for (const { score, item: m } of top.sorted()) {
    if (tokens > 2 * room) break;
    const item = memoryItem(m, score);
    tokens += item.tokens;
    out.push({
      item,
      score,
      tokens: item.tokens,
      slot: slotOf(m),
      wording: wordingOf(m),
      // Every source, not the few shown: an excerpt of any of them repeats the memory.
      ...(withSources && { sources: sourcesOf(m) }),
    });
  }
  return out;
}

/** The order of the block's sections (api/recall-render.ts): rules, facts, decisions, state, then past sessions. */
function sectionOf(i: RecallItem): number {
  if (i.kind === 'episode') return 4;
  switch (i.type) {
    case 'instruction':
    case 'preference':
      return 0;
    case 'decision':
      return 2;
    case 'state':
      return 3;
    default:
      return 1;
  }
}

export function recall(store: MemoryStore, opts: RecallOptions): RecallResponse {
  const query = opts.query?.trim() || undefined;
  const matched = new Map<string, number>();
  if (query) for (const h of store.search(query, opts.namespaces, 200)) matched.set(h.memory.id, h.score);
  const digests = takeDigests(opts.digests ?? [], opts.budget);
  const state = opts.state ?? [];
  const stateTokens = state.length === 0 ? 0 : STATE_HEADING_TOKENS + state.reduce((n, i) => n + i.tokens, 0);
  const room = Math.max(0, opts.budget - FRAME_TOKENS - digests.tokens - stateTokens);
  // A query ranks by match: the ranker's floor is for what is recalled unasked.
  const floor = query === undefined ? rankFloor() : -Infinity;
  const withEpisodes = query !== undefined && opts.episodes !== undefined && opts.project !== null;
  const all = offers(store, opts, query, matched, room, floor, withEpisodes);
  // Past sessions are searched in this project only: another project's words are never this one's recall.
  if (query && opts.episodes && opts.project !== null) {
    for (const h of opts.episodes.search(query, { project: opts.project, limit: 50 })) {
      if (opts.exclude?.(messageKey(h.sessionId, h.messageId), undefined)) continue;
      const text = `${h.speaker ? `${h.speaker}: ` : ''}${h.text}`.replace(/\s+/g, ' ').trim();
      const item: RecallItem = {
        kind: 'episode',
        id: messageKey(h.sessionId, h.messageId),
        text,
        type: 'episode',
        scope: 'session',
        score: h.score * EPISODE_WEIGHT,
        tokens: estimateTokens(text) + ITEM_FRAME_TOKENS + 2,
        sources: [{ sessionId: h.sessionId, messageIds: [h.messageId] }],
        ...(h.at !== undefined && { at: h.at }),
      };
      // Its words without the speaker's name: a memory taken from it says them without one.
      all.push({ item, score: item.score, tokens: item.tokens, wording: dedupeKey(h.text), message: item.id });
    }
  }
  const keep = opts.within?.keep;
  // A memory the agent's record already says (a request it carried out) is not said again.
  const record = (opts.stateSays ?? state.map((i) => i.text)).map((t) => new Set(dedupeKey(t).split(' ')));
  const fresh = record.length === 0 ? all : all.filter((o) => o.message !== undefined || !record.some((r) => recordSays(r, o.wording)));
  // Offers are past the floor already (memories before freshness; a query has none).
  const picked = fillBudget(keep ? fresh.filter((o) => keep(o.item)) : fresh, room, -Infinity, opts.within?.had).map((o) => o.item);
  // By section (standing rules, the project's facts, decisions, the state of the work), best first
  // within each; then the agent's record of the work, then past sessions.
  const items = [...picked.sort((a, b) => sectionOf(a) - sectionOf(b) || b.score - a.score), ...state, ...digests.items];
  const tokens = FRAME_TOKENS + digests.tokens + stateTokens + picked.reduce((n, i) => n + i.tokens, 0);
  const considered = all.length + (opts.digests?.length ?? 0) + state.length;
  return { project: opts.project, query: query ?? null, budget: opts.budget, tokens, considered, items };
}
