/**
 * The "Current state" lines of a recall block: the project's state record, resolved, as recall
 * items marked as the agent's record with their date and session. What is open comes first (in
 * progress, then the newest), then what was built and found, newest first.
 */
import type { RecallItem } from '../../api/memory.js';
import { estimateTokens } from '../../llm/tokens.js';
import type { StateLine } from './resolve.js';

const ITEM_FRAME_TOKENS = 4;

function source(l: StateLine): string {
  switch (l.source) {
    case 'commit':
      return l.hashes?.join(', ') ?? 'commit';
    case 'plan':
      return 'approved plan';
    case 'todo':
      return `todo, ${l.status === 'in_progress' ? 'in progress' : 'pending'}`;
    case 'report':
      return "the agent's report";
    case 'summary':
      return 'compaction summary';
    case 'found':
      return 'verified';
  }
}

/** "Built: Add retry to the S3 upload (a1b2c3d, 2026-11-20, session 5f2c9e1a)" */
export function stateText(l: StateLine): string {
  const head = l.kind === 'built' ? 'Built' : l.kind === 'open' ? 'Open' : 'Found';
  const date = l.at === undefined ? '' : `, ${l.at.slice(0, 10)}`;
  return `${head}: ${l.text} (${source(l)}${date}, session ${l.sessionId.slice(0, 8)})`;
}

/** Which lines go first when the share is too small for all: what is open, then the latest work. */
function priority(l: StateLine): number {
  if (l.kind === 'open') return l.status === 'in_progress' ? 0 : 1;
  return l.kind === 'built' ? 2 : 3;
}

/** The state's recall items, best first, within `room` tokens. */
export function stateItems(lines: readonly StateLine[], room: number): RecallItem[] {
  const ranked = [...lines].sort((a, b) => priority(a) - priority(b) || (b.at ?? '').localeCompare(a.at ?? ''));
  const out: RecallItem[] = [];
  let tokens = 0;
  for (const l of ranked) {
    const text = stateText(l);
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
  return out.sort((a, b) => priorityOf(a) - priorityOf(b));
}

const priorityOf = (i: RecallItem) => (i.type === 'open' ? 0 : i.type === 'built' ? 1 : 2);
