/**
 * Memories tied to their repository, one project at a time: evidence is recorded for those that
 * have none yet (and again, with the mark cleared, for those the person just said again: they
 * confirmed it as things are now); the rest are checked against the repository. Decisions first,
 * applied by the caller (ingest applies them at once; a dream puts them in its plan).
 */
import { statSync } from 'node:fs';
import type { Evidence } from '../../api/memory-evidence.js';
import type { Memory } from '../../api/memory.js';
import { detect } from './detect.js';
import { blobsOf, headCommit } from './repo.js';
import { snapshotOf } from './snapshot.js';
import { repoNow, verdictOf } from './verify.js';
import type { Logger } from '../../log.js';
import { isActive } from '../store/model.js';
import type { MemoryStore } from '../store/store.js';

export interface Decisions {
  /** Evidence recorded now: found for the first time, or again for a memory said again. */
  evidence: Map<string, Evidence[]>;
  /** Marks cleared: the person said it again. */
  cleared: string[];
  reverify: { id: string; reason: string }[];
  /** `gone`: which of its evidence is gone (flagged, so a restored memory is not archived again for it). */
  archive: { id: string; reason: string; gone: number[] }[];
}

export const noDecisions = (): Decisions => ({ evidence: new Map(), cleared: [], reverify: [], archive: [] });

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

async function record(root: string, memories: Memory[], at: string, out: Decisions): Promise<void> {
  const snap = await snapshotOf(root);
  const found = memories.map((m) => ({ m, found: detect(m.content, snap) }));
  const blobs = await blobsOf(
    root,
    found.flatMap((f) => f.found.filter((x) => x.kind !== 'dir').map((x) => x.path)),
  );
  const commit = snap.git && found.some((f) => f.found.length > 0) ? await headCommit(root) : undefined;
  for (const { m, found: items } of found) {
    const evidence = items.map((f): Evidence => {
      const blob = blobs.get(f.path);
      return { ...f, ...(blob !== undefined && { blob }), ...(commit !== undefined && { commit }), at };
    });
    out.evidence.set(m.id, evidence);
  }
}

/** The decisions for one project's active memories (`confirmed`: said again just now). */
export async function decideProject(root: string, memories: readonly Memory[], opts: { at: string; confirmed?: ReadonlySet<string> }): Promise<Decisions> {
  const out = noDecisions();
  if (memories.length === 0 || !isDirectory(root)) return out;
  const confirmed = opts.confirmed ?? new Set<string>();
  const fresh = memories.filter((m) => m.evidence === undefined || confirmed.has(m.id));
  if (fresh.length > 0) await record(root, fresh, opts.at, out);
  for (const m of fresh) if (m.reverify !== undefined && confirmed.has(m.id)) out.cleared.push(m.id);
  const held = memories.filter((m) => !out.evidence.has(m.id) && (m.evidence?.length ?? 0) > 0);
  if (held.length === 0) return out;
  const now = await repoNow(
    root,
    held.flatMap((m) => m.evidence ?? []),
  );
  for (const m of held) {
    const v = verdictOf(m.evidence ?? [], now);
    if (v.kind === 'gone') out.archive.push({ id: m.id, reason: v.reason, gone: v.gone });
    else if (v.kind === 'changed' && m.reverify === undefined) out.reverify.push({ id: m.id, reason: v.reason });
  }
  return out;
}

/** Decisions for every project among `memories` (active ones; other scopes have no repository). */
export async function decideAll(memories: readonly Memory[], opts: { at: string; confirmed?: ReadonlySet<string> }): Promise<Decisions> {
  const byProject = new Map<string, Memory[]>();
  for (const m of memories) {
    if (m.scope !== 'project' || m.project === undefined) continue;
    const list = byProject.get(m.project);
    if (list === undefined) byProject.set(m.project, [m]);
    else list.push(m);
  }
  const all = noDecisions();
  for (const [root, list] of byProject) {
    const d = await decideProject(root, list, opts);
    for (const [id, e] of d.evidence) all.evidence.set(id, e);
    all.cleared.push(...d.cleared);
    all.reverify.push(...d.reverify);
    all.archive.push(...d.archive);
  }
  return all;
}

/** Applies decisions to the store (an archive with its reason; nothing is deleted). */
export function applyDecisions(store: MemoryStore, d: Decisions, at: string): void {
  for (const [id, evidence] of d.evidence) if (store.get(id) !== undefined) store.update(id, (m) => (m.evidence = evidence));
  for (const id of d.cleared) store.update(id, (m) => delete m.reverify);
  for (const r of d.reverify) store.update(r.id, (m) => (m.reverify = { at, reason: r.reason }));
  for (const a of d.archive) {
    store.update(a.id, (m) => {
      for (const i of a.gone) if (m.evidence?.[i] !== undefined) m.evidence[i].gone = true;
      m.archivedAt = at;
      m.archiveReason = a.reason;
    });
  }
}

/**
 * After a session of `project` was ingested: its memories with no evidence get theirs, those said
 * again in it are confirmed, the others are checked against the repository as the session left it.
 * A repository that cannot be read is logged, never a failed ingest.
 */
export async function tieAfterIngest(store: MemoryStore, project: string, said: readonly Memory[], at: string, log: Logger): Promise<void> {
  try {
    const active = store.list({ scope: 'project', project }).filter(isActive);
    const d = await decideProject(project, active, { at, confirmed: new Set(said.map((m) => m.id)) });
    applyDecisions(store, d, at);
  } catch (err) {
    log.warn({ project, err: (err as Error).message }, 'could not check the memories against the repository');
  }
}

/**
 * A memory the person (or an agent, through MCP) just wrote: its evidence recorded at once, as
 * things are now, so a file it names that goes before the next ingest or dream is noticed then. A
 * repository that cannot be read is logged: the memory is kept all the same.
 */
export async function tieRemembered(store: MemoryStore, m: Memory, at: string, log: Logger): Promise<void> {
  if (m.scope !== 'project' || m.project === undefined) return;
  try {
    applyDecisions(store, await decideProject(m.project, [m], { at, confirmed: new Set([m.id]) }), at);
  } catch (err) {
    log.warn({ project: m.project, err: (err as Error).message }, 'could not record what the memory names in its repository');
  }
}
