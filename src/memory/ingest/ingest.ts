/**
 * Session end: read a transcript from where the last ingest stopped (read-session.ts), keep its
 * episodes and digest, extract memories, redact secrets, merge them into the store, then move the
 * cursor.
 * Re-ingesting an unchanged file is a stat and nothing more; `reingest` reads it all again with the
 * current extractor, taking back what the earlier extraction of this file left first.
 */
import { basename, dirname, extname, isAbsolute } from 'node:path';
import type { SessionDigest } from '../../api/digest.js';
import type { IngestRequest, IngestSummary, Memory } from '../../api/memory.js';
import { nowMs } from '../../clock.js';
import { AppError } from '../../errors.js';
import type { EpisodeStore } from '../episodic/episodes.js';
import { lowered } from '../rank/score.js';
import { redact } from '../../redact/redact.js';
import type { ExtractInput, ExtractResult, Extractor } from '../extract/types.js';
import { merge } from '../store/merge.js';
import { promoteIfShared } from '../store/promote.js';
import { relatedMemories } from '../store/related.js';
import type { Namespace } from '../store/model.js';
import { isHomeDir, projectKey } from '../../project.js';
import { keptOut, retractFile, type Retraction } from './reextract.js';
import { tieAfterIngest } from '../evidence/tie.js';
import type { MemoryStore } from '../store/store.js';
import type { ReadAhead } from './read-ahead.js';
import { readSession, type ReadDeps } from './read-session.js';

/** What a statement made in the home directory keeps of its importance: it may be about any project. */
const HOME_IMPORTANCE = 0.5;

/**
 * Lower, but still above the ranker's floor: a statement made at home is less sure to matter, not
 * unheard (below the floor, recall would never give it, even at home).
 */
const homeImportance = (importance: number): number => lowered(importance, HOME_IMPORTANCE);

export interface IngestDeps extends ReadDeps {
  store: MemoryStore;
  episodes: EpisodeStore;
  extract: Extractor;
  /** The caller's next file, read while this one is extracted. */
  ahead?: ReadAhead;
  maxPerSession: number;
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

export async function ingestTranscript(deps: IngestDeps, req: IngestRequest): Promise<IngestSummary> {
  const started = Date.now();
  if (!isAbsolute(req.path)) throw new AppError('bad_request', `transcript path must be absolute, got ${req.path}`);
  const read = (await deps.ahead?.take(req)) ?? (await readSession(deps, req));
  // Read; the rest is extraction on the ranking thread, while this thread reads the caller's next file.
  if (req.next !== undefined) void deps.ahead?.start({ path: req.next, format: req.format, reingest: req.reingest });
  if (read.unchanged) return unchangedSummary({ path: read.real }, read.known, started);
  const { real, key, known, stats, digest, episodes, messages } = read;
  const reingest = req.reingest === true;

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
  const fromOffset = read.offset;
  const at = (t: string | undefined) => t ?? read.last ?? session.lastMessageAt ?? new Date(nowMs()).toISOString();

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
  const retraction: Retraction | undefined = reingest ? retractFile(deps.store, { sessionId, ids: read.ids }, nowIso) : undefined;
  // Secrets masked in the messages read; a model's proposal is masked again in case it wrote one out.
  let secretsMasked = read.secretsMasked;
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
      project !== null && agentId === undefined ? deps.states.putSession(project, { ...read.state.result(), sessionId }) : Promise.resolve(),
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
    format: read.format,
    offset: stats.endOffset,
    size: read.size,
    state: 'ingested',
    ingestedAt: nowIso,
    messages: (restart ? 0 : session.messages) + input.messages.length,
    malformedLines: (restart ? 0 : session.malformedLines) + stats.malformedLines,
    memories: (restart ? 0 : session.memories) + added.length,
    tokens: {
      input: (restart ? 0 : session.tokens.input) + (result.tokens?.input ?? 0),
      output: (restart ? 0 : session.tokens.output) + (result.tokens?.output ?? 0),
    },
    ...(read.first !== undefined && (restart || session.firstMessageAt === undefined || read.first < session.firstMessageAt) && { firstMessageAt: read.first }),
    ...(read.last !== undefined && { lastMessageAt: read.last }),
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
    format: read.format,
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
