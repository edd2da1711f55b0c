/**
 * Where a memory came from, opened in place: for each source session its record, and for each source
 * message its text, time, line and byte offset in the transcript, and the messages around it. Text
 * and neighbours come from the session's episodes (secrets already masked); the transcript is read
 * line by line (never whole) only as far as the last source message, to place it. A transcript that
 * is gone is said in its source's `error`; the rest is still answered.
 */
import { stat } from 'node:fs/promises';
import type { Memory, SessionRecord } from '../../api/memory.js';
import type { MemorySource, SourceMessage } from '../../api/memory-browse.js';
import { isErrno } from '../../errors.js';
import type { Episode, EpisodeStore } from '../episodic/episodes.js';
import { redact } from '../../redact/redact.js';
import { stripControls } from '../../redact/sanitize.js';
import type { SessionRegistry } from '../sessions.js';
import { messagesOfLine, readLines, type TranscriptMessage } from '../transcripts/index.js';

/** Messages shown on each side of a source message. */
const CONTEXT = 2;
const TEXT_MAX = 2000;

interface Place {
  line: number;
  offset: number;
  message?: TranscriptMessage;
}

/** A line's id: a block after the first, or a plan held back, is `<line id>:<suffix>`. */
const baseId = (id: string) => id.replace(/:[\w-]+$/, '');

/** Finds the lines of the wanted message ids, reading the transcript from the start only until the last is found. */
async function place(record: SessionRecord, ids: string[]): Promise<Map<string, Place>> {
  const out = new Map<string, Place>();
  const byOffset = new Map<number, string[]>();
  const byText = new Map<string, string[]>();
  for (const id of ids) {
    if (id.startsWith('#')) continue; // an element of a JSON array transcript: not a line
    const at = /^@(\d+)(?::[\w-]+)?$/.exec(id);
    if (at) byOffset.set(Number(at[1]), [...(byOffset.get(Number(at[1])) ?? []), id]);
    else byText.set(baseId(id), [...(byText.get(baseId(id)) ?? []), id]);
  }
  let left = ids.filter((id) => !id.startsWith('#')).length;
  if (left === 0) return out;
  let n = 0;
  for await (const line of readLines(record.path)) {
    n++;
    const hits = [...(byOffset.get(line.start) ?? [])];
    for (const [base, group] of byText) if (line.text.includes(`"${base}"`)) hits.push(...group);
    for (const id of hits) {
      if (out.has(id)) continue;
      const message = record.format === undefined ? undefined : messagesOfLine(record.format, line.text, line.start).find((m) => m.id === id);
      out.set(id, { line: n, offset: line.start, ...(message !== undefined && { message }) });
      left--;
    }
    if (left <= 0 || line.end > record.offset) break; // past what was ingested, nothing of ours can be
  }
  return out;
}

const clean = (s: string) => redact(stripControls(s.length > TEXT_MAX ? `${s.slice(0, TEXT_MAX)}…` : s)).text;
const neighbour = (e: Episode) => ({ id: e.messageId, role: e.role, kind: e.kind, text: e.text, ...(e.at !== undefined && { at: e.at }) });

function message(id: string, episodes: Episode[], where: Place | undefined): SourceMessage {
  const i = episodes.findIndex((e) => e.messageId === id);
  const e = episodes[i];
  const m = where?.message;
  const at = e?.at ?? m?.timestamp;
  return {
    id,
    found: e !== undefined || where !== undefined,
    ...((e ?? m) !== undefined && { role: e?.role ?? m?.role, kind: e?.kind ?? m?.kind, text: e?.text ?? clean(m?.text ?? '') }),
    ...(at !== undefined && { at }),
    ...(where !== undefined && { line: where.line, offset: where.offset }),
    before: i < 0 ? [] : episodes.slice(Math.max(0, i - CONTEXT), i).map(neighbour),
    after: i < 0 ? [] : episodes.slice(i + 1, i + 1 + CONTEXT).map(neighbour),
  };
}

export async function memorySources(m: Memory, sessions: SessionRegistry, episodes: EpisodeStore): Promise<MemorySource[]> {
  const out: MemorySource[] = [];
  for (const src of m.sources) {
    const records = sessions.list().filter((s) => s.sessionId === src.sessionId);
    const main = sessions.main(src.sessionId) ?? records[0] ?? null;
    const said = episodes.ofSessions(new Set([src.sessionId]));
    const places = new Map<string, Place>();
    let error: MemorySource['error'];
    for (const r of records) {
      const wanted = src.messageIds.filter((id) => !places.has(id));
      if (wanted.length === 0) break;
      try {
        if (!(await stat(r.path)).isFile()) throw Object.assign(new Error('not a file'), { code: 'ENOTFILE' });
        for (const [id, p] of await place(r, wanted)) places.set(id, p);
      } catch (err) {
        const gone = isErrno(err, 'ENOENT');
        error ??= {
          code: gone ? 'transcript_missing' : 'transcript_unreadable',
          message: `${gone ? 'transcript is gone (moved or deleted)' : `transcript cannot be read (${(err as Error).message})`}: ${r.path}; messages are shown from the episodic index only`,
        };
      }
    }
    out.push({ sessionId: src.sessionId, session: main, messages: src.messageIds.map((id) => message(id, said, places.get(id))), ...(error && { error }) });
  }
  return out;
}
