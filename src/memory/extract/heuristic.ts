/**
 * The offline extractor: pattern rules over what the user typed (and, for root causes and fixes,
 * what the assistant concluded). Pure and linear in the transcript; tool output is never read.
 */
import { classifySentence, type Draft } from './classify.js';
import { findLearnings } from './learnings.js';
import { proseSentences } from './sentences.js';
import { dedupeKey } from './tidy.js';
import type { Candidate, ExtractInput, ExtractMessage, ExtractResult } from './types.js';

const DEFAULT_MAX = 20;

/** Typed prose only: no tool traffic, injected context, compaction summaries or subagents. */
function readable(m: ExtractMessage): boolean {
  return m.kind === 'text' && (m.role === 'user' || m.role === 'assistant') && m.meta !== true && m.compactSummary !== true && m.sidechain !== true;
}

interface Entry {
  candidate: Candidate;
  order: number;
  ids: Set<string>;
}

/** Candidates by normalised content: a repeat adds its message and keeps the stronger reading. */
class Pool {
  private readonly entries = new Map<string, Entry>();

  add(draft: Draft, m: ExtractMessage): void {
    const key = dedupeKey(draft.content);
    if (key.length === 0) return;
    const seen = this.entries.get(key);
    if (seen === undefined) {
      const candidate: Candidate = { ...draft, messageIds: [m.id] };
      if (m.timestamp !== undefined) candidate.at = m.timestamp;
      this.entries.set(key, { candidate, order: this.entries.size, ids: new Set([m.id]) });
      return;
    }
    const c = seen.candidate;
    if (!seen.ids.has(m.id)) {
      seen.ids.add(m.id);
      c.messageIds.push(m.id);
    }
    if (m.timestamp !== undefined) c.at = m.timestamp;
    c.importance = Math.max(c.importance, draft.importance);
    if (draft.replaces !== undefined) c.replaces = [...new Set([...(c.replaces ?? []), ...draft.replaces])];
  }

  /** The most important `max`, ties to the earliest, returned in the order they were said. */
  top(max: number): Candidate[] {
    return [...this.entries.values()]
      .sort((a, b) => b.candidate.importance - a.candidate.importance || a.order - b.order)
      .slice(0, Math.max(0, max))
      .sort((a, b) => a.order - b.order)
      .map((e) => e.candidate);
  }
}

export function extractHeuristic(input: ExtractInput): ExtractResult {
  const pool = new Pool();
  for (const m of input.messages) {
    if (!readable(m)) continue;
    const { sentences, lists } = proseSentences(m.text);
    const learnings = findLearnings(sentences);
    for (const l of learnings) pool.add({ content: l.content, type: 'learning', scope: 'project', stable: l.stable, importance: l.importance }, m);
    // The assistant's proposals are not the user's facts or wishes: only its conclusions count.
    if (m.role !== 'user') continue;
    sentences.forEach((s, i) => {
      if (learnings.some((l) => l.used.includes(i))) return;
      const d = classifySentence(s);
      if (d !== undefined) pool.add(d, m);
    });
    for (const s of lists) {
      const d = classifySentence(s, true);
      if (d !== undefined) pool.add(d, m);
    }
  }
  const max = Number.isFinite(input.maxMemories) ? input.maxMemories : DEFAULT_MAX;
  return { candidates: pool.top(max), extractor: 'heuristic' };
}
