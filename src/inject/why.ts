/**
 * Why an item was injected, in a few words: the features of the memory that weighed most in its
 * rank (store/model.ts `rankOf`: importance, pinned, sessions that said it, how fresh) and, for a
 * prompt, the match. Recorded in the ledger so "why was this recalled?" has an answer.
 */
import type { Memory, RecallItem } from '../api/memory.js';

const DAY_MS = 86_400_000;

/** The factors of one item, strongest first (at most four). */
export function whyOf(item: RecallItem, m: Memory | undefined, query: string | null, nowMs: number): string[] {
  if (item.kind === 'digest') return ['recent session here'];
  if (item.kind === 'state') return ["the agent's record of this project's work"];
  if (item.kind === 'episode') return [query ? `past session matches the prompt (score ${item.score.toFixed(2)})` : 'past session'];
  const out: { w: number; text: string }[] = [];
  if (query) out.push({ w: 10, text: `matches the prompt (score ${item.score.toFixed(2)})` });
  if (m === undefined) return out.map((o) => o.text);
  if (m.type === 'instruction' || m.type === 'preference') out.push({ w: 5, text: `standing ${m.type}` });
  if (m.pinned) out.push({ w: 4, text: 'pinned' });
  out.push({ w: 3 * m.importance, text: `importance ${m.importance.toFixed(2)}` });
  const sessions = new Set(m.sources.map((s) => s.sessionId)).size;
  if (sessions > 1) out.push({ w: 1 + Math.log2(sessions), text: `said in ${sessions} sessions` });
  if (m.stable) out.push({ w: 1.5, text: 'stable (does not decay)' });
  const days = Math.max(0, Math.round((nowMs - Date.parse(m.lastSeenAt)) / DAY_MS));
  if (Number.isFinite(days)) out.push({ w: days <= 7 ? 2 : 0.5, text: days === 0 ? 'seen today' : `seen ${days} day(s) ago` });
  out.push({ w: 0.1, text: `rank ${item.score.toFixed(2)}` });
  return out
    .sort((a, b) => b.w - a.w)
    .slice(0, 4)
    .map((o) => o.text);
}
