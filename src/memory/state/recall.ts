/**
 * The "Current state" lines of a recall block: the project's state record, resolved, as recall
 * items marked as the agent's record with their date and session. What a session's task list,
 * report or summary left open is a line (in progress first, the newest session first). What was
 * committed, built otherwise, and found is a line per session each, its pieces one after another,
 * newest session first: a changelog, which reaches back over more sessions in the same room than a
 * line (with its own date and source) per piece.
 */
import type { RecallItem } from '../../api/memory.js';
import { estimateTokens } from '../../llm/tokens.js';
import type { StateLine } from './resolve.js';

import { ITEM_FRAME_TOKENS } from '../recall/budget.js';
/** A line of merged commits names its latest few. */
const HASHES_SHOWN = 3;
/** Between the pieces of a session's line (a request's own list is joined by "; "). */
const JOIN = ' · ';

function hashes(l: StateLine): string {
  const h = l.hashes ?? [];
  return h.length <= HASHES_SHOWN ? h.join(', ') : `${h.slice(-HASHES_SHOWN).join(', ')} +${h.length - HASHES_SHOWN} more`;
}

/** Where a piece comes from, as its note says it (a commit's line says it was committed; its pieces give their hashes). */
function source(l: StateLine): string {
  switch (l.source) {
    case 'commit':
      return hashes(l);
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

const day = (at: string | undefined): string => (at === undefined ? '' : at.slice(0, 10));

/** Where a session's open items come from, as their line names it: the task list, the agent's report, a summary. */
function openSource(l: StateLine): string {
  return l.source === 'todo' ? 'tasks' : source(l);
}

/**
 * "Open (tasks, 2026-11-20): Wire the retry into the uploader (in progress) · Expose the metric":
 * what one session's task list (or report, or summary) left open, one line.
 */
function openText(pieces: readonly StateLine[]): string {
  const first = pieces[0];
  if (first === undefined) return '';
  const at = pieces.reduce((m, l) => ((l.at ?? '') > m ? (l.at ?? '') : m), '');
  const piece = (l: StateLine) => `${l.text.replace(/[\s.;:]+$/, '')}${l.status === 'in_progress' ? ' (in progress)' : ''}`;
  return `Open (${openSource(first)}${at === '' ? '' : `, ${day(at)}`}): ${pieces.map(piece).join(JOIN)}`;
}

/** A session's line a piece belongs to: its commits, its other built work, what it found. */
function head(l: StateLine): 'Committed' | 'Built' | 'Found' {
  return l.kind === 'found' ? 'Found' : l.source === 'commit' ? 'Committed' : 'Built';
}

/** One piece within its session's line: "Add retry to the S3 upload (a1b2c3d)". */
function pieceText(l: StateLine): string {
  const note = source(l);
  return `${l.text.replace(/[\s.;:]+$/, '')}${note === '' ? '' : ` (${note})`}`;
}

/** "Committed 2026-11-20: Add retry to the S3 upload (a1b2c3d) · Stream the CSV export (e4f5a6b)". */
function sessionText(pieces: readonly StateLine[]): string {
  const at = pieces.reduce((m, l) => ((l.at ?? '') > m ? (l.at ?? '') : m), '');
  const first = pieces[0];
  return first === undefined ? '' : `${head(first)}${at === '' ? '' : ` ${day(at)}`}: ${pieces.map(pieceText).join(JOIN)}`;
}

/** Within a session: what is in progress, then what is open, then what was built and found. */
function priority(l: StateLine): number {
  if (l.kind === 'open') return l.status === 'in_progress' ? 0 : 1;
  if (l.kind === 'built') return l.source === 'request' || l.source === 'report' ? 4 : l.source === 'todo' ? 3 : 2;
  return 5;
}

const latest = (g: readonly StateLine[]): string => g.reduce((m, l) => ((l.sessionAt ?? '') > m ? (l.sessionAt ?? '') : m), '');

/**
 * Finished work a piece per session per round, the latest sessions first, and a session's first
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

/** A recall item for a line of the record: one open item, or a session's pieces (`first` among them). */
function item(id: string, text: string, first: StateLine, pieces: readonly StateLine[]): RecallItem {
  const at = pieces.reduce<string | undefined>((m, l) => ((l.at ?? '') > (m ?? '') ? l.at : m), undefined);
  return {
    kind: 'state',
    id,
    text,
    type: first.kind,
    scope: 'session',
    score: 0,
    tokens: estimateTokens(text) + ITEM_FRAME_TOKENS,
    sources: [{ sessionId: first.sessionId, messageIds: [...new Set(pieces.flatMap((l) => l.messageIds))].slice(0, 5) }],
    ...(at !== undefined && { at }),
  };
}

/** The state's recall items, and the pieces they say (what a memory repeating one need not say again). */
export interface StateBlock {
  items: RecallItem[];
  said: string[];
}

/**
 * The state's recall items within `room` tokens: what is open (the latest sessions' first, in
 * progress before pending), then finished work spread over the sessions, a piece at a time. Shown
 * open first, then a line per session of what was built and found, newest first.
 */
export function stateItems(lines: readonly StateLine[], room: number): StateBlock {
  const open = lines
    .filter((l) => l.kind === 'open')
    .sort((a, b) => (b.sessionAt ?? '').localeCompare(a.sessionAt ?? '') || priority(a) - priority(b) || (b.at ?? '').localeCompare(a.at ?? ''));
  // A record read twice (a resumed transcript holds its conversation again) is said once.
  const seen = new Set<string>();
  const said: string[] = [];
  const items: RecallItem[] = [];
  let tokens = 0;
  // What one session's list (or report, or summary) left open is one line, grown a piece at a time while it fits.
  const openOf = new Map<string, StateLine[]>();
  const openCost = (pieces: readonly StateLine[]) => (pieces.length === 0 ? 0 : estimateTokens(openText(pieces)) + ITEM_FRAME_TOKENS);
  for (const l of open) {
    const key = `open ${l.text}`;
    const id = `${l.sessionId}#open:${openSource(l)}`;
    const now = openOf.get(id) ?? [];
    const extra = openCost([...now, l]) - openCost(now);
    if (seen.has(key) || tokens + extra > room) continue;
    seen.add(key);
    said.push(l.text);
    tokens += extra;
    openOf.set(id, [...now, l]);
  }
  for (const [id, pieces] of openOf) if (pieces[0] !== undefined) items.push(item(id, openText(pieces), pieces[0], pieces));
  // Finished work a piece at a time: a piece goes in while its session's line, grown by it, fits.
  const lineOf = new Map<string, StateLine[]>();
  const cost = (pieces: readonly StateLine[]) => (pieces.length === 0 ? 0 : estimateTokens(sessionText(pieces)) + ITEM_FRAME_TOKENS);
  // An older session's finished tasks its commits do not name fill what room is left: its commits
  // say its work, and the latest session's task list is the newer word.
  const finishedLines = lines.filter((x) => x.kind !== 'open');
  const newest = latest(finishedLines);
  const filler = (l: StateLine): boolean => l.source === 'todo' && (l.sessionAt ?? '') < newest;
  for (const l of [...spread(finishedLines.filter((x) => !filler(x))), ...spread(finishedLines.filter(filler))]) {
    const key = `${l.kind} ${l.text}`;
    const id = `${l.sessionId}#${head(l).toLowerCase()}`;
    const now = lineOf.get(id) ?? [];
    const grown = [...now, l].sort((a, b) => (a.at ?? '').localeCompare(b.at ?? ''));
    const extra = cost(grown) - cost(now);
    if (seen.has(key) || tokens + extra > room) continue;
    seen.add(key);
    said.push(l.text, ...(l.alsoSays ?? []));
    tokens += extra;
    lineOf.set(id, grown);
  }
  const finished = [...lineOf]
    .flatMap(([id, pieces]) => (pieces[0] === undefined ? [] : [item(id, sessionText(pieces), pieces[0], pieces)]))
    .sort((a, b) => (a.type === b.type ? 0 : a.type === 'built' ? -1 : 1) || (b.at ?? '').localeCompare(a.at ?? ''));
  return { items: [...items, ...finished], said };
}
