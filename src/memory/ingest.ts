/**
 * Session end: read a transcript from where the last ingest stopped, index its episodes, extract
 * memories, redact secrets, merge them into the store, then move the cursor. Re-ingesting an
 * unchanged file is a stat and nothing more.
 */
import { realpath, stat } from 'node:fs/promises';
import { basename, dirname, extname, isAbsolute } from 'node:path';
import type { IngestRequest, IngestSummary, Memory } from '../api/memory.js';
import { nowMs } from '../clock.js';
import { AppError, isErrno } from '../errors.js';
import type { Logger } from '../log.js';
import { EPISODE_TEXT_MAX, type Episode, type EpisodeStore } from './episodes.js';
import { redact } from './extract/redact.js';
import type { ExtractInput, ExtractMessage, ExtractResult } from './extract/types.js';
import { merge } from './merge.js';
import type { Namespace } from './model.js';
import { projectKey } from '../project.js';
import { sessionKey, type SessionRegistry } from './sessions.js';
import type { MemoryStore } from './store.js';
import { parseTranscript } from './transcripts/index.js';
import { clip } from './transcripts/render.js';
import type { TranscriptMessage } from './transcripts/types.js';

export type Extractor = (input: ExtractInput) => Promise<ExtractResult>;

export interface IngestDeps {
  store: MemoryStore;
  episodes: EpisodeStore;
  sessions: SessionRegistry;
  extract: Extractor;
  maxPerSession: number;
  log: Logger;
}

/** Extraction sees tool output only as a short excerpt: it is evidence, never a memory. */
const EXTRACT_TOOL_RESULT_MAX = 500;
const EXTRACT_TEXT_MAX = 4000;

function forExtraction(m: TranscriptMessage): ExtractMessage | undefined {
  if (m.kind === 'thinking' || m.kind === 'boundary') return undefined;
  const max = m.kind === 'tool_result' ? EXTRACT_TOOL_RESULT_MAX : EXTRACT_TEXT_MAX;
  const { id, role, kind, toolName, isError, timestamp, meta, sidechain, compactSummary, speaker } = m;
  return { id, role, kind, text: clip(m.text, max), toolName, isError, timestamp, meta, sidechain, compactSummary, speaker };
}

/** What the episodic index keeps: said and done, never tool output, secrets masked. */
function episodeOf(m: TranscriptMessage): Episode | undefined {
  if (m.meta || m.compactSummary || !(m.kind === 'text' || m.kind === 'tool_use')) return undefined;
  if (m.role === 'system' || m.text.trim() === '') return undefined;
  const text = redact(clip(m.text, EPISODE_TEXT_MAX)).text;
  return {
    sessionId: '', // known once the transcript was read
    messageId: m.id,
    project: null,
    role: m.role,
    kind: m.kind,
    text,
    ...(m.speaker !== undefined && { speaker: m.speaker }),
    ...(m.timestamp !== undefined && { at: m.timestamp }),
  };
}

function unchangedSummary(req: { path: string }, s: { sessionId: string; format?: IngestSummary['format']; project: string | null; offset: number }, started: number): IngestSummary {
  return {
    sessionId: s.sessionId,
    path: req.path,
    format: s.format ?? 'messages',
    project: s.project,
    unchanged: true,
    fromOffset: s.offset,
    toOffset: s.offset,
    messages: 0,
    malformedLines: 0,
    extractor: 'heuristic',
    secretsMasked: 0,
    added: [],
    reinforced: [],
    superseded: [],
    durationMs: Date.now() - started,
  };
}

export async function ingestTranscript(deps: IngestDeps, req: IngestRequest): Promise<IngestSummary> {
  const started = Date.now();
  if (!isAbsolute(req.path)) throw new AppError('bad_request', `transcript path must be absolute, got ${req.path}`);
  let real: string;
  try {
    real = await realpath(req.path);
  } catch (err) {
    if (isErrno(err, 'ENOENT')) throw new AppError('not_found', `transcript not found: ${req.path}`);
    throw err;
  }
  const st = await stat(real);
  if (!st.isFile()) throw new AppError('bad_request', `not a file: ${req.path}`);
  const key = sessionKey(real);
  const known = deps.sessions.get(key);
  if (known && known.state === 'ingested' && known.offset === st.size) {
    return unchangedSummary({ path: real }, known, started);
  }
  let offset = known?.offset ?? 0;
  if (offset > st.size) {
    deps.log.warn({ path: real, offset, size: st.size }, 'transcript shrank since the last ingest; reading it again from the start');
    offset = 0;
  }

  const parse = await parseTranscript(real, { offset, ...(req.format ?? known?.format ? { format: req.format ?? known?.format } : {}) });
  // Converted as they stream by, so a 50 MB transcript never sits in memory whole.
  const messages: ExtractMessage[] = [];
  const episodes: Episode[] = [];
  let first: string | undefined;
  let last: string | undefined;
  for await (const m of parse.messages) {
    if (m.timestamp !== undefined) {
      if (first === undefined || m.timestamp < first) first = m.timestamp;
      if (last === undefined || m.timestamp > last) last = m.timestamp;
    }
    const x = forExtraction(m);
    if (x) messages.push(x);
    const e = episodeOf(m);
    if (e) episodes.push(e);
  }
  const stats = parse.stats();
  const sessionId = req.sessionId ?? stats.sessionId ?? known?.sessionId ?? basename(real, extname(real));
  const cwd = stats.cwd ?? req.cwd ?? dirname(real);
  const project = req.project !== undefined ? projectKey(req.project) : (known?.project ?? projectKey(cwd));
  const session = deps.sessions.ensure(key, { sessionId, path: real, project });
  session.state = 'ingesting';
  const fromOffset = offset;
  const at = (t: string | undefined) => t ?? last ?? session.lastMessageAt ?? new Date(nowMs()).toISOString();

  for (const e of episodes) {
    e.sessionId = sessionId;
    e.project = project;
  }
  const input: ExtractInput = { sessionId, project, messages, maxMemories: deps.maxPerSession };
  let result: ExtractResult;
  try {
    result = input.messages.length > 0 ? await deps.extract(input) : { candidates: [], extractor: 'heuristic' };
  } catch (err) {
    session.state = 'failed';
    session.error = (err as Error).message;
    await deps.sessions.save();
    throw err;
  }

  let secretsMasked = 0;
  const added: Memory[] = [];
  const reinforced: Memory[] = [];
  const superseded: Memory[] = [];
  for (const c of result.candidates) {
    const r = redact(c.content);
    secretsMasked += r.found.length;
    if (r.onlySecret) continue; // a memory only about a secret is dropped
    const namespace: Namespace = c.scope === 'user' ? { scope: 'user' } : { scope: 'project', project };
    const out = merge(deps.store, {
      content: r.text,
      type: c.type,
      namespace,
      stable: c.stable,
      importance: c.importance,
      at: at(c.at),
      source: { sessionId, messageIds: c.messageIds },
      ...(c.replaces && { replaces: c.replaces }),
      origin: result.extractor,
    });
    if (out.kind === 'added') added.push(out.memory);
    if (out.kind === 'reinforced') reinforced.push(out.memory);
    superseded.push(...out.superseded);
  }

  await deps.episodes.append(key, episodes);
  await deps.store.save();
  Object.assign(session, {
    sessionId,
    project,
    format: parse.format,
    offset: stats.endOffset,
    size: st.size,
    state: 'ingested',
    ingestedAt: new Date(nowMs()).toISOString(),
    messages: session.messages + input.messages.length,
    malformedLines: session.malformedLines + stats.malformedLines,
    memories: session.memories + added.length,
    tokens: {
      input: session.tokens.input + (result.tokens?.input ?? 0),
      output: session.tokens.output + (result.tokens?.output ?? 0),
    },
    ...(first !== undefined && (session.firstMessageAt === undefined || first < session.firstMessageAt) && { firstMessageAt: first }),
    ...(last !== undefined && { lastMessageAt: last }),
    ...(req.reason !== undefined && { reason: req.reason }),
  });
  delete session.error;
  await deps.sessions.save();
  return {
    sessionId,
    path: real,
    format: parse.format,
    project,
    unchanged: false,
    fromOffset,
    toOffset: stats.endOffset,
    messages: input.messages.length,
    malformedLines: stats.malformedLines,
    extractor: result.extractor,
    ...(result.fallback !== undefined && { fallback: result.fallback }),
    ...(result.tokens !== undefined && { tokens: result.tokens }),
    secretsMasked,
    added,
    reinforced,
    superseded,
    durationMs: Date.now() - started,
  };
}
