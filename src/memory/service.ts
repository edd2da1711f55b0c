/** The daemon's memory subsystem: the store, the episodic index, sessions and the ingest queue. */
import type {
  ImportLine,
  ListMemoriesQuery,
  IngestRequest,
  IngestSummary,
  Memory,
  RecallRequest,
  RecallResponse,
  ReextractResponse,
  RememberRequest,
  SearchHit,
  SessionShowResponse,
} from '../api/memory.js';
import { nowMs } from '../clock.js';
import type { Config } from '../config.js';
import { AppError } from '../errors.js';
import type { Logger } from '../log.js';
import type { Paths } from '../paths.js';
import { recentDigests } from './digest/recent.js';
import { DigestStore } from './digest/store.js';
import { archivedLines, compactState, resolveState, settles, stateItems, StateStore, type StateBlock, type StateLine } from './state/index.js';
import { STATE_HEADING_TOKENS, STATE_SHARE } from './recall/budget.js';

import { EpisodeStore } from './episodic/episodes.js';
import { redact } from '../redact/redact.js';
import type { Extractor } from './extract/types.js';
import { ingestTranscript } from './ingest/ingest.js';
import { IngestQueue } from './ingest/ingest-queue.js';
import { ReadAhead } from './ingest/read-ahead.js';
import { findDuplicate, merge } from './store/merge.js';
import type { Namespace } from './store/model.js';
import { isHomeDir, projectKey } from '../project.js';
import { typeOfStatement } from './rank/proposals.js';
import type { Said } from './recall/echo.js';
import { recall, type RecallWithin } from './recall/recall.js';
import { saidBy } from './recall/said.js';
import { activityOf, type Activity } from './store/activity.js';
import { stripControls } from '../redact/sanitize.js';
import { SessionRegistry } from './sessions.js';
import { MemoryStore } from './store/store.js';
import { importMemory } from './store/transfer.js';
import { hookContext } from '../api/recall-render.js';
import { browse } from './browse/browse.js';
import { tieRemembered } from './evidence/tie.js';
import { editMemory } from './browse/edit.js';
import { MemoryViews } from './browse/views.js';
import { logEvent } from './events.js';

export class MemoryService {
  readonly queue: IngestQueue;
  readonly browse: MemoryViews;
  /** Rejected in a project and not reinforced since: kept out of its recall (set by the daemon from the injection ledger). */
  rejected: (project: string | null, id: string, reinforcements: number | undefined) => boolean = () => false;
  private readonly reconfigureIngest: (config: Config) => void;

  private constructor(
    readonly store: MemoryStore,
    readonly episodes: EpisodeStore,
    readonly sessions: SessionRegistry,
    readonly digests: DigestStore,
    readonly states: StateStore,
    private config: Config,
    private readonly log: Logger,
    extract: Extractor,
    prepare?: () => void,
  ) {
    this.browse = new MemoryViews(store, sessions, episodes);
    const readDeps = { sessions, digests, states, ...(prepare && { prepare }), log };
    const deps = { ...readDeps, store, episodes, extract, ahead: new ReadAhead(readDeps), maxPerSession: config.memory.maxPerSession };
    this.reconfigureIngest = (c) => {
      deps.maxPerSession = c.memory.maxPerSession;
    };
    this.queue = new IngestQueue(async (req) => {
      const summary = await ingestTranscript(deps, req);
      if (!summary.unchanged) {
        log.info(
          {
            session: summary.sessionId,
            messages: summary.messages,
            added: summary.added.length,
            reinforced: summary.reinforced.length,
            superseded: summary.superseded.length,
            extractor: summary.extractor,
            ms: summary.durationMs,
          },
          'session ingested',
        );
      }
      return summary;
    });
  }

  /** `prepare`: readies the extractor as an ingest starts reading (the daemon's ranking thread). */
  static async open(paths: Paths, config: Config, log: Logger, extract: Extractor, prepare?: () => void): Promise<MemoryService> {
    const [store, sessions] = await Promise.all([MemoryStore.open(paths.memoryDir), SessionRegistry.open(paths.sessionsFile)]);
    const episodes = EpisodeStore.open(paths.episodesDir);
    return new MemoryService(store, episodes, sessions, new DigestStore(paths.digestsDir), new StateStore(paths.workStateDir), config, log, extract, prepare);
  }

  /** A reloaded config: recall's budget and episodes, and memories per session, apply from now on. */
  reconfigure(config: Config): void {
    this.config = config;
    this.reconfigureIngest(config);
  }

  /**
   * Projects are known by their git root; `DIR` may be any directory inside one (a Windows path is
   * kept as given). The home directory is no project: asked for it, the answer is the user's alone.
   */
  project(dir: string | undefined): string | undefined {
    const key = dir === undefined ? undefined : projectKey(dir);
    return key === undefined || isHomeDir(key) ? undefined : key;
  }

  /** A team named in a request must be one of the configured teams: a typo is an error, never an empty answer. */
  team(name: string): Namespace {
    const known = Object.keys(this.config.teams);
    if (known.includes(name)) return { scope: 'team', team: name };
    const fix = `add "teams": {"${name}": "/path/to/dir"} to the config file`;
    throw new AppError(
      'bad_request',
      known.length > 0 ? `no team "${name}"; the teams are: ${known.join(', ')} (or ${fix})` : `no team "${name}": no teams are configured; ${fix}`,
    );
  }

  namespace(req: { scope?: Memory['scope'] | undefined; project?: string | undefined; team?: string | undefined }): Namespace {
    const scope = req.scope ?? (req.team ? 'team' : req.project ? 'project' : 'user');
    if (scope === 'team') {
      if (!req.team) throw new AppError('bad_request', 'a team memory needs a team name (--team NAME)');
      return this.team(req.team);
    }
    if (scope === 'project') {
      if (!req.project) throw new AppError('bad_request', 'a project memory needs a project (--project DIR)');
      const project = this.project(req.project);
      // The home directory is no project: what is remembered there is the user's.
      return project === undefined ? { scope: 'user' } : { scope: 'project', project };
    }
    return { scope: 'user' };
  }

  async remember(req: RememberRequest): Promise<Memory> {
    const r = redact(stripControls(req.content));
    if (r.onlySecret) throw new AppError('bad_request', 'that text is only a secret or personal data; nightshift never stores either');
    const at = new Date(nowMs()).toISOString();
    const out = merge(this.store, {
      text: r.text,
      type: req.type ?? typeOfStatement(r.text),
      namespace: this.namespace(req),
      stable: req.stable,
      importance: req.importance ?? (req.stable ? 0.8 : 0.6),
      at,
      origin: 'manual',
    });
    await tieRemembered(this.store, out.memory, at, this.log);
    await this.store.save();
    return this.store.get(out.memory.id) ?? out.memory;
  }

  /** The user's, the project's and the team's memories (`all`: every namespace, every state), filtered, a page of them and the total. */
  list(q: ListMemoriesQuery): { memories: Memory[]; total: number } {
    if (q.all === '1') return browse(this.store, { namespaces: this.store.namespaces(), state: 'all' }, q);
    const namespaces: Namespace[] = [{ scope: 'user' }];
    const project = this.project(q.project);
    if (project) namespaces.push({ scope: 'project', project });
    if (q.team) namespaces.push(this.team(q.team));
    return browse(this.store, { namespaces, state: q.archived === '1' ? 'archived' : 'active' }, q);
  }

  async edit(id: string, content: string): Promise<Memory> {
    const m = editMemory(this.store, id, content, new Date(nowMs()).toISOString());
    await this.store.save();
    return m;
  }

  async act(id: string, action: 'forget' | 'restore' | 'pin'): Promise<Memory> {
    this.store.mustGet(id);
    const when = new Date(nowMs()).toISOString();
    const m = this.store.update(id, (x) => {
      if (action === 'forget') {
        x.archivedAt = when;
        x.archiveReason = 'forgotten by the user';
        logEvent(x, { at: when, kind: 'forgotten' });
      } else if (action === 'restore') {
        const was =
          x.supersededBy !== undefined
            ? `superseded by ${x.supersededBy}`
            : x.archivedAt !== undefined
              ? `archived (${x.archiveReason ?? 'no reason'})`
              : 'active';
        logEvent(x, { at: when, kind: 'restored', from: was });
        x.restoredAt = when;
        delete x.archivedAt;
        delete x.archiveReason;
        delete x.supersededBy;
        delete x.supersededAt;
      } else {
        if (!x.pinned) logEvent(x, { at: when, kind: 'pinned' });
        x.pinned = true;
        x.stable = true;
        x.importance = Math.max(x.importance, 0.9);
      }
    });
    await this.store.save();
    return m;
  }

  async importLines(lines: ImportLine[]): Promise<{ added: number; duplicates: number }> {
    let added = 0;
    let duplicates = 0;
    let n = 0;
    for (const raw of lines) {
      // A big import must not hold the event loop: signals and other requests get their turn.
      if (++n % 200 === 0) await new Promise((r) => setImmediate(r));
      const r = redact(stripControls(raw.content));
      if (r.onlySecret) continue; // never stored, not even from an import
      const line = { ...raw, content: r.text };
      const ns = this.namespace({ scope: line.scope, project: line.project, team: line.team });
      const active = line.archivedAt === undefined && line.supersededBy === undefined;
      if ((active && findDuplicate(this.store, ns, line.content)) || (line.id !== undefined && this.store.get(line.id))) {
        duplicates++;
        continue;
      }
      importMemory(this.store, line, ns, new Date(nowMs()).toISOString());
      added++;
    }
    await this.store.save();
    return { added, duplicates };
  }

  private activityCache: { version: number; activity: Activity } | undefined;

  /** The projects' activity (store/activity.ts), worked out again only when the sessions changed. */
  activity(): Activity {
    if (this.activityCache?.version !== this.sessions.version)
      this.activityCache = { version: this.sessions.version, activity: activityOf(this.sessions.list()) };
    return this.activityCache.activity;
  }

  /** `within`: a caller's own narrowing of the answer (prompt-time recall), never part of the API request. */
  recall(req: RecallRequest, within?: RecallWithin): RecallResponse {
    const project = this.project(req.project) ?? null;
    const namespaces: Namespace[] = [{ scope: 'user' }];
    if (project) namespaces.push({ scope: 'project', project });
    if (req.team) namespaces.push(this.team(req.team));
    const budget = req.budget ?? this.config.memory.recallBudget;
    // Resolved once, and only when asked for: prompt-time recall shows no state, and most answers hold no state memory.
    let resolved: StateLine[] | undefined;
    const lines = (): StateLine[] => (resolved ??= project === null ? [] : this.stateLines(project));
    let settled: ReturnType<typeof settles> | undefined;
    const done = (m: Memory): boolean =>
      project !== null &&
      (settled ??= settles(this.states.get(project), lines()))(
        m.content,
        m.lastSeenAt,
        m.sources.map((s) => s.sessionId),
      );
    const state: StateBlock =
      project === null || within ? { items: [], said: [] } : stateItems(lines(), Math.floor(budget * STATE_SHARE) - STATE_HEADING_TOKENS);
    const r = recall(this.store, {
      namespaces,
      project,
      query: req.query,
      budget,
      nowMs: nowMs(),
      episodes: this.config.memory.episodesInRecall && req.episodes ? this.episodes : undefined,
      // Prompt-time recall (`within`) gives only memories and excerpts: no digests or state to work out.
      digests: project === null || within ? [] : recentDigests(this.sessions, this.digests, project),
      state: state.items,
      stateSays: state.said,
      // "Next: the PDF version of the report", then the session committed it, or "the export button
      // does nothing on Safari", then the agent's undisputed report of the fix: the record says it is done.
      done,
      activity: this.activity(),
      exclude: (id, n) => this.rejected(project, id, n),
      within,
    });
    return req.render ? { ...r, rendered: hookContext(r) } : r;
  }

  /** The project's state record, resolved across its sessions, and the finished work the dream archived. */
  private stateLines(project: string): StateLine[] {
    const ns: Namespace = { scope: 'project', project };
    const activity = this.activity();
    const state = this.states.get(project);
    return [...resolveState(state, (iso) => activity.sessionsAfter(ns, iso)), ...archivedLines(state)];
  }

  /** The dream's pass over every project's state record: the last sessions kept, finished work archived. */
  async compactStates(): Promise<{ archived: number; merged: number }> {
    const activity = this.activity();
    let archived = 0;
    let merged = 0;
    for (const project of new Set(this.sessions.list().flatMap((s) => (s.project === null ? [] : [s.project])))) {
      const ns: Namespace = { scope: 'project', project };
      const before = this.states.get(project);
      if (before.sessions.length === 0) continue;
      const r = compactState(before, (iso) => activity.sessionsAfter(ns, iso));
      if (r.archived + r.merged === 0 && r.state.sessions.length === before.sessions.length) continue;
      await this.states.put(r.state);
      archived += r.archived;
      merged += r.merged;
    }
    return { archived, merged };
  }

  /** What a stored memory says (its wording, every source), for telling an excerpt that repeats it. */
  said(id: string): Said | undefined {
    const m = this.store.get(id);
    return m === undefined ? undefined : saidBy(m);
  }

  /** One session: its record, digest, and its subagent and compaction sidechains. */
  showSession(id: string): SessionShowResponse {
    const session = this.sessions.find(id);
    if (session === undefined) throw new AppError('not_found', `no session ${id} (see \`nightshift sessions\`)`);
    const sidechains = session.agentId === undefined ? this.sessions.sidechains(session.sessionId) : [];
    return {
      session,
      digest: this.digests.get(session.key) ?? null,
      sidechains: sidechains.map((s) => ({ session: s, digest: this.digests.get(s.key) ?? null })),
    };
  }

  /** Every session of the project (`fallenBack`: those the heuristics extracted for the model) extracted again with the current extractor, oldest first. */
  async reextract(dir: string, opts: { fallenBack?: boolean } = {}): Promise<ReextractResponse> {
    const project = projectKey(dir);
    const sessions = this.sessions
      .list()
      .filter((s) => s.project === project && s.state !== 'pending' && (!opts.fallenBack || s.fallback !== undefined))
      .sort((a, b) => (a.firstMessageAt ?? '').localeCompare(b.firstMessageAt ?? ''));
    const done: IngestSummary[] = [];
    const skipped: { path: string; error: string }[] = [];
    for (const s of sessions) {
      try {
        done.push(await this.ingest({ path: s.path, wait: true, reingest: true, ...(s.format !== undefined && { format: s.format }), project }));
      } catch (err) {
        skipped.push({ path: s.path, error: (err as Error).message });
      }
    }
    return { project, sessions: done, skipped };
  }

  search(q: { q: string; project?: string | undefined; limit: number }): SearchHit[] {
    return this.episodes.search(q.q, { project: this.project(q.project), limit: q.limit });
  }

  ingest(req: IngestRequest): Promise<IngestSummary> {
    return this.queue.enqueue(req);
  }
}
