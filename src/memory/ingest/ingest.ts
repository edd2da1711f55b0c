/**
 * Session end: read a transcript from where the last ingest stopped, index its episodes, build its
 * digest, extract memories, redact secrets, merge them into the store, then move the cursor.
 * Re-ingesting an unchanged file is a stat and nothing more; `reingest` reads it all again with the
 * current extractor, taking back what the earlier extraction of this file left first.
 */
import { realpath, stat } from 'node:fs/promises';
import { basename, dirname, extname, isAbsolute } from 'node:path';
import type { SessionDigest } from '../../api/digest.js';
import type { IngestRequest, IngestSummary, Memory } from '../../api/memory.js';
import { nowMs } from '../../clock.js';
import { AppError, isErrno } from '../../errors.js';
import type { Logger } from '../../log.js';
import { DigestBuilder, emptyDigest } from '../digest/build.js';
import type { DigestStore } from '../digest/store.js';
import { emptySessionState, StateBuilder, type StateStore } from '../state/index.js';
import type { Episode, EpisodeStore } from '../episodic/episodes.js';
import { maskedMessages } from './masked-messages.js';
import { lowered } from '../rank/score.js';
import { redact } from '../../redact/redact.js';
import type { ExtractInput, ExtractMessage, ExtractResult, Extractor } from '../extract/types.js';
import { episodeOf, forExtraction, markRejected } from './ingest-messages.js';
import { merge } from '../store/merge.js';
import { promoteIfShared } from '../store/promote.js';
import { relatedMemories } from '../store/related.js';
import type { Namespace } from '../store/model.js';
import { isHomeDir, projectKey } from '../../project.js';
import { keptOut, retractFile, type Retraction } from './reextract.js';
import { tieAfterIngest } from '../evidence/tie.js';
import { sessionKey, type SessionRegistry } from '../sessions.js';
import type { MemoryStore } from '../store/store.js';
import { detectTranscriptFormat, parseTranscript, resumePoint } from '../transcripts/index.js';
import { TimeSlices } from '../../sys/time-slices.js';

/** What a statement made in the home directory keeps of its importance: it may be about any project. */
const HOME_IMPORTANCE = 0.5;

/**
 * Lower, but still above the ranker's floor: a statement made at home is less sure to matter, not
 * unheard (below the floor, recall would never give it, even at home).
 */
const homeImportance = (importance: number): number => lowered(importance, HOME_IMPORTANCE);

export interface IngestDeps {
  store: MemoryStore;
  episodes: EpisodeStore;
  sessions: SessionRegistry;
  digests: DigestStore;
  states: StateStore;
  extract: Extractor;
  /** Readies the extractor while a transcript is read (the ranking thread loads its model). */
  prepare?: () => void;
  maxPerSession: number;
  log: Logger;
}

function unchangedSummary(
  req: { path: string },
  s: { sessionId: string; format?: IngestSummary['format']; project: string | null; offset: number },
  started: number,
): IngestSummary {
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
  const reingest = req.reingest === true;
  if (!reingest && known && known.state === 'ingested' && known.offset === st.size) {
    return unchangedSummary({ path: real }, known, started);
  }
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
  const stateBuilder = new StateBuilder(earlierState ? structuredClone(earlierState) : emptySessionState(key, ''));
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
    stateBuilder.add(m);
    const x = forExtraction(m);
    if (x) messages.push(x);
    markRejected(episodes, m);
    const e = episodeOf(m);
    if (e) episodes.push(e);
  }
  const stats = parse.stats();
  if (req.format !== undefined && offset === 0 && parsed === 0 && stats.linesRead > 0) throw await formatMismatch(real, req.format);

  const sessionId = req.sessionId ?? stats.sessionId ?? known?.sessionId ?? basename(real, extname(real));
  const agentId = stats.agentId ?? known?.agentId;
  // A subagent or compaction sidechain belongs to its parent's project, whatever its own cwd.
  const parent = agentId === undefined ? undefined : deps.sessions.main(sessionId);
  const cwd = stats.cwd ?? req.cwd ?? dirname(real);
  const named = req.project !== undefined ? projectKey(req.project) : (known?.project ?? parent?.project ?? projectKey(cwd));
  // A session started in the home directory belongs to no project: what it says is the person's.
  const project = isHomeDir(named) ? null : named;
  const before = known === undefined ? undefined : structuredClone(known);
  const session = deps.sessions.ensure(key, { sessionId, path: real, project, agentId });
  session.state = 'ingesting';
  const fromOffset = offset;
  const at = (t: string | undefined) => t ?? last ?? session.lastMessageAt ?? new Date(nowMs()).toISOString();

  for (const e of episodes) {
    e.sessionId = sessionId;
    e.project = project;
  }
  // The digest is done before extraction: a model extractor reads it (files, commands, outcome).
  const finished: SessionDigest = digest.result(new Date(nowMs()).toISOString(), project);
  Object.assign(finished, { sessionId, project, ...(agentId !== undefined && { agentId }) });
  const related = relatedMemories(deps.store, project === null ? [{ scope: 'user' }] : [{ scope: 'project', project }, { scope: 'user' }]);
  const input: ExtractInput = { sessionId, ...(project !== null && { project }), messages, maxMemories: deps.maxPerSession, related, digest: finished };
  let result: ExtractResult;
  try {
    result = input.messages.length > 0 ? await deps.extract(input) : { proposals: [], extractor: 'heuristic' };
  } catch (err) {
    session.state = 'failed';
    session.error = (err as Error).message;
    await deps.sessions.save();
    throw err;
  }

  const nowIso = new Date(nowMs()).toISOString();
  const retraction: Retraction | undefined = reingest ? retractFile(deps.store, { sessionId, ids }, nowIso) : undefined;
  // Secrets masked in the messages read; a model's proposal is masked again in case it wrote one out.
  let secretsMasked = masked.secrets;
  const added: Memory[] = [];
  const reinforced: Memory[] = [];
  const superseded: Memory[] = [];
  for (const c of result.proposals) {
    const r = redact(c.text);
    secretsMasked += r.found.length;
    // Only a secret or personal data, or a pointer at a screenshot or a download: dropped.
    if (r.onlySecret || r.oneOffPointer) continue;
    const namespace: Namespace = c.scope === 'user' || project === null ? { scope: 'user' } : { scope: 'project', project };
    const homeless = project === null && c.scope !== 'user';
    if (retraction && keptOut(retraction, namespace, r.text)) continue;
    const out = merge(deps.store, {
      text: r.text,
      type: c.type,
      namespace,
      // Said in no project and not as the person's own standing rule: held with less confidence.
      stable: c.stable && !homeless,
      importance: homeless ? homeImportance(c.importance) : c.importance,
      at: at(c.at),
      source: { sessionId, messageIds: c.messageIds, ...(c.said !== undefined && { said: c.said }) },
      ...(c.replaces && { replaces: c.replaces }),
      origin: result.extractor,
    });
    if (out.kind === 'added') added.push(out.memory);
    if (out.kind === 'reinforced') reinforced.push(out.memory);
    superseded.push(...out.superseded);
    const promoted = promoteIfShared(deps.store, out.memory, at(c.at));
    if (promoted !== undefined) added.push(promoted);
  }
  if (project !== null) await tieAfterIngest(deps.store, project, reinforced, nowIso, deps.log);

  // Independent files: written side by side; the cursor moves only once all of them are on disk.
  try {
    await Promise.all([
      reingest ? deps.episodes.replaceSession(key, episodes) : deps.episodes.append(key, episodes),
      deps.store.save(),
      deps.digests.put(finished),
      // Sidechains are part of their parent's work; the parent's own transcript holds its record.
      project !== null && agentId === undefined ? deps.states.putSession(project, { ...stateBuilder.result(), sessionId }) : Promise.resolve(),
    ]);
  } catch (err) {
    // Refused (a full disk): the session is not shown as ingesting, nor written so by a later save.
    deps.sessions.undo(key, before);
    throw err;
  }
  const restart = reingest || fromOffset === 0;
  Object.assign(session, {
    sessionId,
    project,
    format: parse.format,
    offset: stats.endOffset,
    size: st.size,
    state: 'ingested',
    ingestedAt: nowIso,
    messages: (restart ? 0 : session.messages) + input.messages.length,
    malformedLines: (restart ? 0 : session.malformedLines) + stats.malformedLines,
    memories: (restart ? 0 : session.memories) + added.length,
    tokens: {
      input: (restart ? 0 : session.tokens.input) + (result.tokens?.input ?? 0),
      output: (restart ? 0 : session.tokens.output) + (result.tokens?.output ?? 0),
    },
    ...(first !== undefined && (restart || session.firstMessageAt === undefined || first < session.firstMessageAt) && { firstMessageAt: first }),
    ...(last !== undefined && { lastMessageAt: last }),
    ...(req.reason !== undefined && { reason: req.reason }),
  });
  delete session.error;
  if (result.costUsd !== undefined) session.costUsd = (restart ? 0 : (session.costUsd ?? 0)) + result.costUsd;
  else if (restart) delete session.costUsd;
  session.extractor = result.extractor;
  // An incremental ingest the model did extract keeps the mark: the part before it still fell back.
  if (result.fallback !== undefined) session.fallback = result.fallback;
  else if (restart) delete session.fallback;
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
    ...(result.costUsd !== undefined && { costUsd: result.costUsd }),
    secretsMasked,
    added,
    reinforced,
    superseded,
    ...(retraction && { replaced: retraction.replaced, detached: retraction.detached }),
    durationMs: Date.now() - started,
  };
}
