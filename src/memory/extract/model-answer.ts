/**
 * A model's answer → proposals. Each memory rests on the candidates it cites: their message ids
 * (provenance), the latest one's time, the best one's score as importance and its source as
 * `said`. A memory citing no candidate of its question is dropped: the model may rewrite, merge
 * and drop, never invent. "same: K3" takes the stored wording (so the merge reinforces it, never
 * rewriting its text); "replaces: K3" names the stored value, so the merge supersedes it.
 */
import { validateStructured, type StructuredError } from '../../llm/structured.js';
import { dedupeKey } from '../nlp/tidy.js';
import { rankFloor } from '../rank/score.js';
import { Answer, MemoryItem } from './model-schema.js';
import type { Numbered } from './model-pool.js';
import type { Proposal } from '../rank/proposals.js';
import type { KnownMemory } from '../store/related.js';

/** A proposal and its place in the session (its latest candidate), to hand them over in order. */
export interface Draft {
  proposal: Proposal;
  order: number;
}

export type Answered = { ok: true; drafts: Draft[]; dropped: number } | { ok: false; error: StructuredError | { code: 'no_valid_memories'; message: string } };

const clamp = (x: number): number => Math.max(0, Math.min(1, x));
const bare = (k: string): string => k.trim().replace(/^\[|\]$/g, '');

function draftOf(item: MemoryItem, cited: Numbered[], known: ReadonlyMap<string, KnownMemory>): Draft {
  const byScore = [...cited].sort((a, b) => b.ranked.score - a.ranked.score);
  const inOrder = [...cited].sort((a, b) => a.ranked.candidate.index - b.ranked.candidate.index);
  const latest = inOrder.at(-1);
  const at = inOrder.flatMap((c) => c.ranked.candidate.at ?? []).at(-1);
  const same = item.same === undefined ? undefined : known.get(bare(item.same));
  const replaced = (item.replaces ?? []).map((r) => {
    const k = known.get(bare(r));
    return k === undefined ? r.trim() : (k.value ?? k.content);
  });
  // What the ranker's reading found replaced ("switched from X to Y") stands too.
  const replaces = [...new Set([...replaced, ...cited.flatMap((c) => c.offline.replaces ?? [])])].filter((r) => r.length > 0 && r.length <= 200).slice(0, 10);
  const proposal: Proposal = {
    text: same?.content ?? item.content.replace(/\s+/g, ' ').trim(),
    type: item.type,
    scope: same?.scope === 'user' ? 'user' : item.scope,
    stable: item.stable,
    // What the model kept is worth a line even when the ranker alone would have left it below its floor.
    importance: clamp(Math.max(byScore[0]?.ranked.score ?? 0, rankFloor())),
    messageIds: [...new Set(inOrder.map((c) => c.ranked.candidate.messageId))],
    ...(at !== undefined && { at }),
    ...(replaces.length > 0 && item.stable && { replaces }),
    ...(byScore[0] !== undefined && { said: byScore[0].ranked.candidate.source }),
  };
  return { proposal, order: latest?.ranked.candidate.index ?? 0 };
}

/** One answer, about the candidates of its question, with the stored memories it was shown. */
export function draftsOf(value: unknown, candidates: readonly Numbered[], known: ReadonlyMap<string, KnownMemory>): Answered {
  const v = validateStructured(value, Answer, { arrayKey: 'memories' });
  if (!v.ok) return { ok: false, error: v.error };
  const byNumber = new Map(candidates.map((c) => [c.n, c]));
  const drafts: Draft[] = [];
  for (const raw of v.value.memories) {
    const item = MemoryItem.safeParse(raw);
    if (!item.success || item.data.content.trim() === '') continue;
    const cited = [...new Set(item.data.from)].flatMap((n) => byNumber.get(n) ?? []);
    if (cited.length > 0) drafts.push(draftOf(item.data, cited, known));
  }
  const total = v.value.memories.length;
  if (total > 0 && drafts.length === 0)
    return { ok: false, error: { code: 'no_valid_memories', message: `none of the ${total} memories in the answer was valid or cited a listed candidate` } };
  return { ok: true, drafts, dropped: total - drafts.length };
}

/** The answers of all questions: same wording merged, the `max` most important kept, in session order. */
export function mergeDrafts(lists: readonly Draft[][], max: number): Proposal[] {
  const byKey = new Map<string, Draft>();
  for (const d of lists.flat()) {
    const key = dedupeKey(d.proposal.text);
    const seen = byKey.get(key);
    if (seen === undefined) {
      byKey.set(key, { ...d, proposal: { ...d.proposal } });
      continue;
    }
    const p = seen.proposal;
    p.messageIds = [...new Set([...p.messageIds, ...d.proposal.messageIds])];
    p.importance = Math.max(p.importance, d.proposal.importance);
    if (d.order > seen.order && d.proposal.at !== undefined) p.at = d.proposal.at;
    if (d.proposal.replaces) p.replaces = [...new Set([...(p.replaces ?? []), ...d.proposal.replaces])];
    seen.order = Math.max(seen.order, d.order);
  }
  return [...byKey.values()]
    .sort((a, b) => b.proposal.importance - a.proposal.importance)
    .slice(0, Math.max(0, max))
    .sort((a, b) => a.order - b.order)
    .map((d) => d.proposal);
}
