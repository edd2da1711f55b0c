/**
 * A session's candidates: every statement (collect.ts), long ones in clauses, generic junk and
 * Claude Code's compaction text left out (junk.ts), one statement once (collapse.ts), what the
 * person later took back or corrected (repeats.ts, slips.ts) and trouble the session fixed
 * (fixed.ts) left out, each with its place in the session and how often it was said again.
 */
import { isContinuationText } from '../transcripts/index.js';
import type { ExtractMessage } from '../transcripts/types.js';
import { clausesOf } from './clauses.js';
import { collapsed } from './collapse.js';
import { unitsOf } from './collect.js';
import { fixedIndexes } from './fixed.js';
import { isChatter, isUnansweredNote } from './junk.js';
import { slipIndexes } from './slips.js';
import { repeatCounts, reversedIndexes } from './repeats.js';
import type { Candidate } from './types.js';
import { LONG_CHARS, type Unit } from './unit.js';

export type { Candidate, CandidateSource } from './types.js';
export { correcting } from './slips.js';
export { notesUnanswered } from './junk.js';
export { planGistText } from './plans.js';

function pieces(u: Unit): Unit[] {
  if (u.text.length <= LONG_CHARS || u.source === 'answer' || u.source === 'plan' || u.source === 'learning') return [u];
  const clauses = clausesOf(u);
  return clauses.length > 0 ? clauses : [u];
}

/** Messages after which the agent changed files before the person spoke again. */
function actedOn(messages: readonly ExtractMessage[]): Set<string> {
  const out = new Set<string>();
  let pending: string[] = [];
  for (const m of messages) {
    if (m.role === 'user' && m.kind === 'text' && m.meta !== true) {
      pending.push(m.id);
      if (m.origin === 'typed' || m.origin === 'queued') pending = [m.id];
    } else if (m.kind === 'tool_use' && (m.paths?.length ?? 0) > 0) {
      for (const id of pending) out.add(id);
      pending = [];
    }
  }
  return out;
}

export function collectCandidates(messages: readonly ExtractMessage[]): Candidate[] {
  const lengths = new Map(messages.map((m) => [m.id, m.text.length]));
  const done = actedOn(messages);
  const all = unitsOf(messages)
    .flatMap(pieces)
    .filter((u) => !isChatter(u) && !isUnansweredNote(u) && !isContinuationText(u.text));
  // How often a statement was said is counted before restatements collapse into one.
  const said = repeatCounts(all);
  const { dropped } = collapsed(all);
  const units = all.filter((_, i) => !dropped.has(i));
  const saidAgain = said.filter((_, i) => !dropped.has(i));
  const gone = new Set([...reversedIndexes(units), ...slipIndexes(units), ...fixedIndexes(units, messages)]);
  const kept = units.filter((_, i) => !gone.has(i));
  const repeats = saidAgain.filter((_, i) => !gone.has(i));
  const perMessage = new Map<string, number>();
  for (const u of kept) perMessage.set(u.messageId, (perMessage.get(u.messageId) ?? 0) + 1);
  const seen = new Map<string, number>();
  return kept.map((u, index) => {
    const inMessage = seen.get(u.messageId) ?? 0;
    seen.set(u.messageId, inMessage + 1);
    return {
      ...u,
      index,
      count: kept.length,
      inMessage,
      ofMessage: perMessage.get(u.messageId) ?? 1,
      messageChars: lengths.get(u.messageId) ?? u.text.length,
      repeats: repeats[index] ?? 0,
      actedOn: done.has(u.messageId),
    };
  });
}
