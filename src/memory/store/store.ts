/**
 * The memory store: every namespace's memories in RAM, backed by one lowdb file per namespace,
 * with one lexical index over the active ones. The daemon is its only writer.
 */
import type { Memory } from '../../api/memory.js';
import { AppError } from '../../errors.js';
import { LexicalIndex, type Hit } from './lexical-index.js';
import { TermIndex } from './term-index.js';
import { IdentityIndex } from './identity-index.js';
import { slotKey } from './slots.js';
import type { Slot } from '../../api/memory.js';
import { stem, terms, words } from '../nlp/text.js';
import { fileFor, listMemoryFiles, MemoryFile } from './memory-file.js';
import { stripControls } from '../../redact/sanitize.js';
import { StoreLoader } from './store-load.js';
import { isActive, namespaceKey, namespaceOf, type Namespace } from './model.js';
import type { TeamDir } from './team-dir.js';

/**
 * Where a namespace's memories are kept: a lowdb file, or a team's directory of Markdown files.
 * When a save fails, the backing goes back to what it holds on disk and tells the store (`reverted`).
 */
interface Backing {
  readonly namespace: Namespace;
  readonly memories: Memory[];
  save(): Promise<void>;
}

/** Stores smaller than this are searched with the query as given. */
const PRUNE_QUERY_FROM = 2000;

export class MemoryStore {
  private readonly files = new Map<string, Backing>();
  private readonly byId = new Map<string, { memory: Memory; file: Backing }>();
  private readonly dirty = new Set<Backing>();
  private changes = 0;
  readonly index = new LexicalIndex();
  private readonly terms = new TermIndex();
  private readonly identity = new IdentityIndex();

  private constructor(private readonly dir: string) {}

  /** Namespace files that could not be read at start: moved aside (kept) so the rest can run. */
  readonly setAside: { file: string; movedTo: string; error: string }[] = [];

  private loader: StoreLoader | undefined;

  /**
   * Opens the store: a small one is loaded now (within `foregroundMs`), a large one by
   * `loadInBackground` (see store-load.ts); any use of the store before that is done finishes the
   * load first.
   */
  static async open(dir: string, foregroundMs = 150): Promise<MemoryStore> {
    const store = new MemoryStore(dir);
    const loader = new StoreLoader(listMemoryFiles(dir), {
      take: (file) => {
        store.files.set(namespaceKey(file.namespace), file);
        for (const memory of file.memories) store.byId.set(memory.id, { memory, file });
      },
      index: (file, from, to) => {
        const docs: { id: string; text: string }[] = [];
        const ns = namespaceKey(file.namespace);
        for (const memory of file.memories.slice(from, to)) {
          if (!isActive(memory) || store.byId.get(memory.id)?.file !== file) continue;
          docs.push({ id: memory.id, text: memory.content });
          store.terms.set(memory.id, memory.content, ns);
          store.identity.set(memory, ns);
        }
        store.index.addAll(docs);
      },
      setAside: (entry) => store.setAside.push(entry),
      reverted: (file) => store.reverted(file),
    });
    store.loader = loader;
    loader.start(foregroundMs);
    return store;
  }

  /** True while memories are still being read or indexed in the background. */
  get loading(): boolean {
    return this.loader?.pending ?? false;
  }

  /** Resolves once every memory file is read and indexed. */
  whenLoaded(): Promise<void> {
    return this.loader?.done ?? Promise.resolve();
  }

  /** Loads what is left in the background, between requests (once the daemon answers). */
  loadInBackground(): void {
    this.loader?.background();
  }

  /** Stops loading in the background (the daemon is shutting down). */
  stopLoading(): void {
    this.loader?.stop();
  }

  /** Finishes loading now if it is not done: called by everything that reads or changes the store. */
  private ready(): void {
    if (this.loader?.pending) this.loader.finish();
  }

  get size(): number {
    return this.byId.size;
  }

  get(id: string): Memory | undefined {
    this.ready();
    return this.byId.get(id)?.memory;
  }

  mustGet(id: string): Memory {
    const m = this.get(id);
    if (!m) throw new AppError('not_found', `no memory ${id} (see \`nightshift memories list\`)`);
    return m;
  }

  /** The memories of one namespace (all states); empty when it has none. */
  list(ns: Namespace): readonly Memory[] {
    this.ready();
    return this.files.get(namespaceKey(ns))?.memories ?? [];
  }

  namespaces(): Namespace[] {
    this.ready();
    return [...this.files.values()].map((f) => f.namespace);
  }

  /** Adds a new memory; its text loses control characters (any path that stores one comes here). */
  add(memory: Memory): Memory {
    this.ready();
    memory.content = stripControls(memory.content);
    if (this.byId.has(memory.id)) throw new AppError('conflict', `memory ${memory.id} already exists`);
    const file = this.fileOf(namespaceOf(memory));
    file.memories.push(memory);
    this.byId.set(memory.id, { memory, file });
    if (isActive(memory)) this.indexActive(memory, file);
    this.dirty.add(file);
    this.changes++;
    return memory;
  }

  /** Applies `change` to a memory in place and keeps the index in step with its state. */
  update(id: string, change: (m: Memory) => void): Memory {
    this.ready();
    const entry = this.byId.get(id);
    if (!entry) throw new AppError('not_found', `no memory ${id}`);
    const before = entry.memory.content;
    const slotBefore = entry.memory.slot;
    change(entry.memory);
    this.changes++;
    if (!isActive(entry.memory)) {
      this.index.delete(id);
      this.terms.delete(id);
      this.identity.delete(id);
    } else if (!this.index.has(id) || before !== entry.memory.content || entry.memory.slot !== slotBefore) {
      this.indexActive(entry.memory, entry.file);
    }
    this.dirty.add(entry.file);
    return entry.memory;
  }

  /** Active memories of the namespace sharing at least `minShare` of the text's content words (duplicate candidates). */
  sharingWords(text: string, ns: Namespace, minShare: number): Memory[] {
    this.ready();
    return this.terms.candidates(text, namespaceKey(ns), minShare).flatMap((id) => this.get(id) ?? []);
  }

  private indexActive(memory: Memory, file: Backing): void {
    this.index.set(memory.id, memory.content);
    this.terms.set(memory.id, memory.content, namespaceKey(file.namespace));
    this.identity.set(memory, namespaceKey(file.namespace));
  }

  /** Active memories of the namespace worded exactly so (case, spacing and punctuation aside). */
  withText(ns: Namespace, content: string): Memory[] {
    return this.identity.withText(namespaceKey(ns), content).flatMap((id) => this.get(id) ?? []);
  }

  /** Active memories of the namespace with this slot (any value). */
  withSlot(ns: Namespace, slot: Slot): Memory[] {
    return this.identity.withSlot(namespaceKey(ns), slotKey(slot)).flatMap((id) => this.get(id) ?? []);
  }

  /** Changes on every write: caches of derived lists compare it. */
  get version(): number {
    return this.changes;
  }

  /**
   * BM25 hits among the active memories of the given namespaces. In a large store, words used by
   * more than a fiftieth of its memories are dropped from the query when rarer ones that match
   * remain: they barely move the ranking, and each one makes the search score thousands of memories.
   */
  search(query: string, namespaces: Namespace[], limit: number, exact = false): { memory: Memory; score: number }[] {
    this.ready();
    const keys = namespaces.map(namespaceKey);
    const size = namespaces.reduce((n, ns) => n + this.list(ns).length, 0);
    if (size >= PRUNE_QUERY_FROM) {
      const df = new Map([...new Set(terms(query))].map((t) => [t, this.terms.frequency(t, keys)]));
      const common = new Set([...df].filter(([, n]) => n > size / 50).map(([t]) => t));
      if (common.size > 0 && [...df.values()].some((n) => n > 0 && n <= size / 50))
        query = words(query)
          .filter((w) => !common.has(stem(w)))
          .join(' ');
    }
    const files = new Set(namespaces.flatMap((ns) => this.files.get(namespaceKey(ns)) ?? []));
    const accept = (id: string) => {
      const e = this.byId.get(id);
      return e !== undefined && files.has(e.file);
    };
    return this.index.search(query, limit, accept, exact).flatMap((h: Hit) => {
      const memory = this.get(h.id);
      return memory ? [{ memory, score: h.score }] : [];
    });
  }

  /**
   * Writes every namespace changed since the last save; resolves once they are on disk. A namespace
   * whose write fails is back to what its file holds (`reverted`): a change that was not saved is
   * neither served nor written by a later save; its caller gets the error.
   */
  async save(): Promise<void> {
    this.ready();
    const files = [...this.dirty];
    this.dirty.clear();
    const results = await Promise.allSettled(files.map((f) => f.save()));
    const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed) throw failed.reason;
  }

  /** A backing went back to its file: its memories (and the indexes over them) are replaced by what the file holds. */
  private reverted(file: Backing): void {
    for (const [id, e] of this.byId) {
      if (e.file !== file) continue;
      this.byId.delete(id);
      this.index.delete(id);
      this.terms.delete(id);
      this.identity.delete(id);
    }
    this.dirty.delete(file);
    for (const memory of file.memories) {
      if (this.byId.has(memory.id)) continue; // an id another namespace holds (as at load)
      this.byId.set(memory.id, { memory, file });
      if (isActive(memory)) this.indexActive(memory, file);
    }
    this.changes++;
  }

  /** Takes a team's directory in (again): what is on disk replaces what was in memory. */
  attachTeam(dir: TeamDir): { loaded: number; problems: TeamDir['problems'] } {
    this.ready();
    const key = namespaceKey(dir.namespace);
    const before = this.files.get(key);
    for (const m of before?.memories ?? []) {
      this.byId.delete(m.id);
      this.index.delete(m.id);
      this.terms.delete(m.id);
      this.identity.delete(m.id);
    }
    if (before) this.dirty.delete(before);
    const memories = dir.reload().filter((m) => {
      const clash = this.byId.get(m.id);
      return clash === undefined; // an id another namespace already uses: that file is skipped
    });
    dir.memories = memories;
    dir.onRevert = () => this.attachTeam(dir);
    this.files.set(key, dir);
    this.changes++;
    for (const memory of memories) {
      this.byId.set(memory.id, { memory, file: dir });
      if (isActive(memory)) this.indexActive(memory, dir);
    }
    return { loaded: memories.length, problems: dir.problems };
  }

  private fileOf(ns: Namespace): Backing {
    const key = namespaceKey(ns);
    let file = this.files.get(key);
    if (!file && ns.scope === 'team') {
      throw new AppError('bad_request', `team "${ns.team}" is not configured: add "teams": {"${ns.team}": "/path/to/dir"} to the config file`);
    }
    if (!file) {
      file = MemoryFile.create(fileFor(this.dir, ns), ns, (f) => this.reverted(f));
      this.files.set(key, file);
    }
    return file;
  }
}
