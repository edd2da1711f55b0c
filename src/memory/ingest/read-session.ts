/**
 * The first half of an ingest: a transcript read from where the last ingest stopped, its messages
 * masked as they stream by, with the session's digest, state record, episodes and the messages for
 * extraction built on the way. It changes nothing: the second half (ingest.ts) decides the session,
 * extracts and merges. Reading writes nothing, so it can run ahead of its turn (read-ahead.ts).
 */
import { realpath, stat } from 'node:fs/promises';
import type { Stats } from 'node:fs';
import type { IngestRequest, SessionRecord } from '../../api/memory.js';
import { AppError, isErrno } from '../../errors.js';
import { TimeSlices } from '../../sys/time-slices.js';
import { DigestBuilder, emptyDigest } from '../digest/build.js';
import type { DigestStore } from '../digest/store.js';
import type { Episode } from '../episodic/episodes.js';
import type { ExtractMessage } from '../extract/types.js';
import { sessionKey, type SessionRegistry } from '../sessions.js';
import { emptySessionState, StateBuilder, type StateStore } from '../state/index.js';
import { detectTranscriptFormat, parseTranscript, resumePoint, type TranscriptParse, type TranscriptStats } from '../transcripts/index.js';
import { episodeOf, forExtraction, markRejected } from './ingest-messages.js';
import { maskedMessages } from './masked-messages.js';
import type { Logger } from '../../log.js';

export interface ReadDeps {
  sessions: SessionRegistry;
  digests: DigestStore;
  states: StateStore;
  /** Readies the extractor while a transcript is read (the ranking thread loads its model). */
  prepare?: () => void;
  log: Logger;
}

/** What the registry said of the session when it was read: a read is stale once that changed. */
export interface ReadMark {
  offset: number | undefined;
  state: SessionRecord['state'] | undefined;
  ingestedAt: string | undefined;
}

export const markOf = (known: SessionRecord | undefined): ReadMark => ({ offset: known?.offset, state: known?.state, ingestedAt: known?.ingestedAt });

export const sameMark = (a: ReadMark, b: ReadMark): boolean => a.offset === b.offset && a.state === b.state && a.ingestedAt === b.ingestedAt;

/** Nothing appended since the last ingest. */
export interface UnchangedRead {
  unchanged: true;
  real: string;
  key: string;
  mark: ReadMark;
  known: SessionRecord;
}

export interface SessionRead {
  unchanged: false;
  real: string;
  key: string;
  mark: ReadMark;
  known: SessionRecord | undefined;
  size: number;
  offset: number;
  format: TranscriptParse['format'];
  stats: TranscriptStats;
  digest: DigestBuilder;
  state: StateBuilder;
  messages: ExtractMessage[];
  episodes: Episode[];
  /** Every message id read (a re-ingest takes back what the file gave before by them). */
  ids: Set<string>;
  first: string | undefined;
  last: string | undefined;
  secretsMasked: number;
}

/** `--format` that reads nothing from a transcript is a mistake to name, not an empty session. */
async function formatMismatch(path: string, format: string): Promise<AppError> {
  const detected = await detectTranscriptFormat(path).catch(() => undefined);
  const hint =
    detected === undefined
      ? 'its format could not be detected either'
      : detected === format
        ? 'check that it is a complete transcript'
        : `it looks like ${detected}: pass --format ${detected} or leave --format out`;
  return new AppError('bad_request', `--format ${format} read no messages from ${path}; ${hint}`);
}

async function openTranscript(path: string): Promise<{ real: string; st: Stats }> {
  let real: string;
  try {
    real = await realpath(path);
  } catch (err) {
    if (isErrno(err, 'ENOENT')) throw new AppError('not_found', `transcript not found: ${path}`);
    throw err;
  }
  const st = await stat(real);
  if (!st.isFile()) throw new AppError('bad_request', `not a file: ${path}`);
  return { real, st };
}

export async function readSession(deps: ReadDeps, req: Pick<IngestRequest, 'path' | 'format' | 'reingest'>): Promise<UnchangedRead | SessionRead> {
  const { real, st } = await openTranscript(req.path);
  const key = sessionKey(real);
  const known = deps.sessions.get(key);
  const mark = markOf(known);
  const reingest = req.reingest === true;
  if (!reingest && known && known.state === 'ingested' && known.offset === st.size) return { unchanged: true, real, key, mark, known };
  let offset = reingest ? 0 : (known?.offset ?? 0);
  if (offset > st.size) {
    deps.log.warn({ path: real, offset, size: st.size }, 'transcript shrank since the last ingest; reading it again from the start');
    offset = 0;
  }
  // Rewritten or replaced since (the cursor no longer starts a line): said as what happened and what to do.
  if (offset > 0 && !(await resumePoint(real, offset)).atLineStart) {
    throw new AppError(
      'conflict',
      `${req.path} changed since it was last ingested: byte ${offset}, where ingest would go on, no longer starts a line (the file was replaced or rewritten); to read it whole again: nightshift ingest --reingest ${req.path}`,
    );
  }
  deps.prepare?.();
  const format = req.format ?? known?.format;
  const parse = await parseTranscript(real, { offset, ...(format !== undefined && { format }) });
  const earlier = offset > 0 ? deps.digests.get(key) : undefined;
  const digest = new DigestBuilder(earlier ? structuredClone(earlier) : emptyDigest({ key, sessionId: '', project: null }));
  // The state record is continued the same way; it is known under the project the session was filed in.
  const earlierState = offset > 0 && known?.project != null ? deps.states.session(known.project, key) : undefined;
  const state = new StateBuilder(earlierState ? structuredClone(earlierState) : emptySessionState(key, ''));
  // Converted as they stream by, so a 50 MB transcript never sits in memory whole.
  const messages: ExtractMessage[] = [];
  const episodes: Episode[] = [];
  const ids = new Set<string>();
  let parsed = 0;
  let first: string | undefined;
  let last: string | undefined;
  // Masked as they are read: nothing below sees a secret of the transcript (masked-messages.ts).
  const masked = { secrets: 0 };
  // A megabyte of lines is read at once; handled in one go, it would hold the daemon up ~100 ms.
  const slices = new TimeSlices();
  for await (const m of maskedMessages(parse.messages, masked)) {
    await slices.pass();
    parsed++;
    if (reingest) ids.add(m.id);
    if (m.timestamp !== undefined) {
      if (first === undefined || m.timestamp < first) first = m.timestamp;
      if (last === undefined || m.timestamp > last) last = m.timestamp;
    }
    digest.add(m);
    state.add(m);
    const x = forExtraction(m);
    if (x) messages.push(x);
    markRejected(episodes, m);
    const e = episodeOf(m);
    if (e) episodes.push(e);
  }
  const stats = parse.stats();
  if (req.format !== undefined && offset === 0 && parsed === 0 && stats.linesRead > 0) throw await formatMismatch(real, req.format);
  return {
    unchanged: false,
    real,
    key,
    mark,
    known,
    size: st.size,
    offset,
    format: parse.format,
    stats,
    digest,
    state,
    messages,
    episodes,
    ids,
    first,
    last,
    secretsMasked: masked.secrets,
  };
}
