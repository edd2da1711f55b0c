/** How `memories show` and `memories list` show what a memory rests on in its repository, and its mark to re-verify. */
import type { Evidence } from '../api/memory-evidence.js';
import type { Memory } from '../api/memory.js';
import { escapeControls } from '../api/recall-render.js';

/** Gone evidence: it archived the memory, unless the person restored it since (then it is not checked again). */
const goneNote = (m: Memory): string =>
  m.archivedAt !== undefined ? ' — gone (the memory was archived for it)' : ' — gone, kept because the memory was restored';

function describe(e: Evidence, m: Memory): string {
  const name =
    e.kind === 'dependency' ? `${e.dependency ?? '?'} ${e.value ?? ''}`.trim() : e.kind === 'script' ? (e.key ?? '').replace(/^scripts\./, '') : (e.key ?? '');
  const what =
    e.kind === 'file' || e.kind === 'dir'
      ? `${e.kind} ${e.path}`
      : `${e.kind} ${name}${e.kind !== 'dependency' && e.value !== undefined ? ` = ${e.value}` : ''} in ${e.path}`;
  const at = [e.blob && `blob ${e.blob.slice(0, 10)}`, e.commit && `commit ${e.commit.slice(0, 10)}`].filter(Boolean).join(', ');
  return escapeControls(`${what}${at ? ` (${at})` : ''}${e.gone ? goneNote(m) : ''}`);
}

/** Rows for `memories show`: the mark first, then each piece of evidence. */
export function evidenceRows(m: Memory): [string, string][] {
  const rows: [string, string][] = [];
  if (m.reverify) rows.push(['re-verify', escapeControls(`${m.reverify.reason} (since ${m.reverify.at}; say it again to confirm)`)]);
  for (const e of m.evidence ?? []) rows.push(['evidence', describe(e, m)]);
  return rows;
}

/** The mark `memories list` puts before a memory's text. */
export const reverifyMark = (m: Memory): string => (m.reverify ? '[re-verify] ' : '');
