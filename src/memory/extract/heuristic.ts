/**
 * The offline extractor: units from every place the person states things (units.ts), each
 * classified from its language analysis (classify.ts), the best kept. Pure and linear in the
 * transcript; tool output is never read except to see whether a fix was verified.
 */
import type { Candidate, ExtractInput, ExtractMessage, ExtractResult } from './types.js';
import { classify, KEEP, type Classified } from './classify.js';
import { findLearnings } from './learnings.js';
import { findReplaced } from './replaces.js';
import { dedupeKey, finish, tidy } from './tidy.js';
import { featuresOf } from './features.js';
import { clausesOf, unitsOf, originOf, type Unit } from './units.js';
import { verifiedAfter } from './verified.js';
import { TIME_BOUND_IMPORTANCE } from './time-bound.js';

const DEFAULT_MAX = 20;
const CLAUSE_PENALTY = 0.5;
/** A compaction summary is dense: it may give this many memories, the rest of the session the others. */
const SUMMARY_SHARE = 0.5;
/** From one plan or one summary, at most this many rules: the rest of a long document is detail. */
const PER_DOCUMENT = { 'plan-body': 3, summary: 8 } as const;

interface Entry {
  candidate: Candidate;
  score: number;
  order: number;
  summary: boolean;
  /** The plan or summary it came from, for the per-document cap. */
  document?: { key: string; cap: number };
}

/** The memory text of a unit: the person's words, tidied; a bullet keeps its list's short intro. */
function contentOf(u: Unit): string {
  // "Remember that X": X is what is kept ("remember to X" stays a rule as said).
  const text = tidy(u.text).text.replace(/^(?:remember|keep in mind|bear in mind|note|for future reference)(?:\s+that)?[\s,:]+(?!to\b)/i, '');
  // The intro's last sentence only: "5 questions. plan:" introduces with "plan".
  const intro = u.intro
    ?.split(/(?<=[.!?])\s+/)
    .pop()
    ?.replace(/:\s*$/, '')
    .trim();
  if (u.bullet && intro !== undefined && intro.length > 0 && intro.length <= 40 && !text.toLowerCase().startsWith(intro.toLowerCase())) {
    return finish(`${intro}: ${text}`);
  }
  return finish(text);
}

function importanceOf(c: Classified): number {
  const base = Math.min(0.95, 0.5 + (c.score - 3) * 0.08);
  return c.stable ? base : Math.min(base, TIME_BOUND_IMPORTANCE);
}

/** Messages whose first sentence asks something: restrictions in them are about that request. */
function markInvestigative(units: Unit[]): void {
  const firstOf = new Map<string, Unit>();
  for (const u of units) if (u.source === 'typed' && !firstOf.has(u.messageId)) firstOf.set(u.messageId, u);
  const asking = new Set<string>();
  for (const [id, u] of firstOf) {
    const f = featuresOf(u.sentence);
    if (f.question || f.infoRequest) asking.add(id);
  }
  for (const u of units) if (asking.has(u.messageId)) u.investigative = true;
}

class Pool {
  private readonly entries = new Map<string, Entry>();

  add(content: string, c: Classified, ids: string[], at: string | undefined, summary: boolean, replaces?: string[], document?: Entry['document']): void {
    const key = dedupeKey(content);
    if (key.length === 0) return;
    const seen = this.entries.get(key);
    if (seen !== undefined) {
      for (const id of ids) if (!seen.candidate.messageIds.includes(id)) seen.candidate.messageIds.push(id);
      if (at !== undefined) seen.candidate.at = at;
      seen.score = Math.max(seen.score, c.score) + 0.5; // said again: more likely to matter
      return;
    }
    const candidate: Candidate = { content, type: c.type, scope: c.scope, stable: c.stable, importance: importanceOf(c), messageIds: [...ids] };
    if (at !== undefined) candidate.at = at;
    if (replaces !== undefined && c.stable) candidate.replaces = replaces;
    this.entries.set(key, { candidate, score: c.score, order: this.entries.size, summary, ...(document !== undefined && { document }) });
  }

  /** The best `max`, at most a share of them from summaries, returned in the order they were said. */
  top(max: number): Candidate[] {
    const ranked = [...this.entries.values()].sort((a, b) => b.score - a.score || a.order - b.order);
    const summaryCap = Math.max(1, Math.ceil(max * SUMMARY_SHARE));
    const kept: Entry[] = [];
    const perDocument = new Map<string, number>();
    let summaries = 0;
    for (const e of ranked) {
      if (kept.length >= max) break;
      if (e.summary && summaries >= summaryCap) continue;
      if (e.document !== undefined) {
        const n = perDocument.get(e.document.key) ?? 0;
        if (n >= e.document.cap) continue;
        perDocument.set(e.document.key, n + 1);
      }
      if (e.summary) summaries++;
      kept.push(e);
    }
    return kept.sort((a, b) => a.order - b.order).map((e) => e.candidate);
  }
}

function assistantLearnings(messages: readonly ExtractMessage[], pool: Pool): void {
  messages.forEach((m, i) => {
    if (originOf(m) !== 'assistant' || m.kind !== 'text') return;
    const units = unitsOf([m]);
    // Only a cause with its fix, stated as a fact rather than the assistant's own next step.
    const found = findLearnings(units.map((u) => u.text)).filter((l) => l.used.length === 2 && !/\b(?:I|I'm|I'll|I need|let me|we need)\b/.test(l.content));
    if (found.length === 0 || !verifiedAfter(messages, i)) return;
    for (const l of found) {
      const c: Classified = {
        type: 'learning',
        scope: 'project',
        score: 3.5,
        stable: l.stable,
        features: featuresOf(units[l.used[0] ?? 0]?.sentence ?? { text: '', tokens: [], english: true }),
      };
      pool.add(l.content, c, [m.id], m.timestamp, false);
    }
  });
}

export function extractHeuristic(input: ExtractInput): ExtractResult {
  const pool = new Pool();
  const units = unitsOf(input.messages);
  markInvestigative(units);
  for (const whole of units) {
    // The sentence or, when one of its clauses reads better on its own, that clause.
    let best: { u: Unit; c: Classified } | undefined;
    const sentence = classify(whole);
    for (const u of [whole, ...(whole.source === 'typed' || whole.source === 'feedback' ? clausesOf(whole) : [])]) {
      const c = u === whole ? sentence : classify(u);
      // A clause must read clearly better than its sentence to stand for it, when the sentence stands.
      const score = c === undefined ? undefined : u === whole || sentence === undefined ? c.score : c.score - CLAUSE_PENALTY;
      if (c !== undefined && score !== undefined && score >= KEEP && (best === undefined || score > best.c.score)) best = { u, c: { ...c, score } };
    }
    if (best === undefined) continue;
    const { c } = best;
    // A clause too short to stand alone ("i'll commit") is kept with its sentence.
    const u = best.u.text.split(/\s+/).length < 5 ? whole : best.u;
    const summary = u.source.startsWith('summary-');
    const document =
      u.source === 'plan-body'
        ? { key: `plan:${u.messageId}`, cap: PER_DOCUMENT['plan-body'] }
        : summary
          ? { key: `summary:${u.messageId}`, cap: PER_DOCUMENT.summary }
          : undefined;
    pool.add(contentOf(u), c, [u.messageId], u.at, summary, u.source === 'typed' || u.source === 'feedback' ? findReplaced(u.text) : undefined, document);
  }
  assistantLearnings(input.messages, pool);
  const max = Number.isFinite(input.maxMemories) ? input.maxMemories : DEFAULT_MAX;
  return { candidates: pool.top(max), extractor: 'heuristic' };
}
