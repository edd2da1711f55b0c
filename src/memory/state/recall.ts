/**
 * The "Current state" lines of a recall block: the project's state record, resolved, as recall
 * items marked as the agent's record with their date and session. What is open comes first (in
 * progress, then the newest), then what was built and found, newest first.
 */
import type { RecallItem } from '../../api/memory.js';
import { estimateTokens } from '../../llm/tokens.js';
import type { StateLine } from './resolve.js';

import { ITEM_FRAME_TOKENS } from '../recall/budget.js';
/** A line of merged commits names its latest few. */
const HASHES_SHOWN = 3;

function source(l: StateLine): string {
  switch (l.source) {
    case 'commit': {
      const hashes = l.hashes ?? [];
      if (hashes.length === 0) return 'committed';
      return `committed ${hashes.length <= HASHES_SHOWN ? hashes.join(', ') : `${hashes.slice(-HASHES_SHOWN).join(', ')} +${hashes.length - HASHES_SHOWN} more`}`;
    }
    case 'plan':
      return 'approved plan';
    case 'todo':
      return `tasks, ${l.kind === 'built' ? 'done' : l.status === 'in_progress' ? 'in progress' : 'pending'}`;
    case 'request':
      return 'as asked';
    case 'report':
      return "the agent's report";
    case 'summary':
      return 'compaction summary';
    case 'found':
      return 'verified';
    case 'archive':
      return 'earlier session';
  }
}

/** "Built: Add retry to the S3 upload (committed a1b2c3d, 2026-11-20)": the session is the item's source. */
export function stateText(l: StateLine): string {
  const head = l.kind === 'built' ? 'Built' : l.kind === 'open' ? 'Open' : 'Found';
  const date = l.at === undefined ? '' : `, ${l.at.slice(0, 10)}`;
  return `${head}: ${l.text} (${source(l)}${date})`;
}

/** Within a session: what is in progress, then what is open, then what was built and found. */
function priority(l: StateLine): number {
  if (l.kind === 'open') return l.status === 'in_progress' ? 0 : 1;
  if (l.kind === 'built') return l.source === 'request' ? 4 : l.source === 'todo' ? 3 : 2;
  return 5;
}

const latest = (g: readonly StateLine[]): string => g.reduce((m, l) => ((l.sessionAt ?? '') > m ? (l.sessionAt ?? '') : m), '');

/**
 * Finished work a line per session per round, the latest sessions first, and a session's first
 * piece of work before its follow-ups: the room reaches back over several sessions' work (what
 * was built stands until replaced) instead of filling with the latest session's commits.
 */
function spread(lines: readonly StateLine[]): StateLine[] {
  const bySession = new Map<string, StateLine[]>();
  for (const l of lines) bySession.set(l.sessionId, [...(bySession.get(l.sessionId) ?? []), l]);
  const groups = [...bySession.values()]
    .map((g) => g.sort((a, b) => priority(a) - priority(b) || (a.at ?? '').localeCompare(b.at ?? '')))
    .sort((a, b) => latest(b).localeCompare(latest(a)));
  const out: StateLine[] = [];
  for (let round = 0; out.length < lines.length; round++) for (const g of groups) if (g[round] !== undefined) out.push(g[round] as StateLine);
  return out;
}

/**
 * The state's recall items within `room` tokens: what is open (the latest sessions' first, in
 * progress before pending), then finished work spread over the sessions. Shown open first, then
 * built and found, newest first.
 */
export function stateItems(lines: readonly StateLine[], room: number): RecallItem[] {
  const open = lines
    .filter((l) => l.kind === 'open')
    .sort((a, b) => (b.sessionAt ?? '').localeCompare(a.sessionAt ?? '') || priority(a) - priority(b) || (b.at ?? '').localeCompare(a.at ?? ''));
  const out: RecallItem[] = [];
  const said = new Set<string>();
  let tokens = 0;
  for (const l of [...open, ...spread(lines.filter((x) => x.kind !== 'open'))]) {
    const text = stateText(l);
    // A record read twice (a resumed transcript holds its conversation again) is one line.
    if (said.has(text)) continue;
    said.add(text);
    const cost = estimateTokens(text) + ITEM_FRAME_TOKENS;
    if (tokens + cost > room) continue;
    tokens += cost;
    out.push({
      kind: 'state',
      id: `${l.sessionId}#${l.messageIds[0] ?? ''}`,
      text,
      type: l.kind,
      scope: 'session',
      score: 0,
      tokens: cost,
      sources: [{ sessionId: l.sessionId, messageIds: [...new Set(l.messageIds)].slice(0, 5) }],
      ...(l.at !== undefined && { at: l.at }),
    });
  }
  return out.sort((a, b) => priorityOf(a) - priorityOf(b) || (a.type === 'open' ? 0 : (b.at ?? '').localeCompare(a.at ?? '')));
}

const priorityOf = (i: RecallItem) => (i.type === 'open' ? 0 : i.type === 'built' ? 1 : 2);
