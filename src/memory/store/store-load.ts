/**
 * Start-up of the memory store as small steps, so the daemon answers while 100,000 memories are
 * read, validated and indexed: what fits in a short foreground budget is done before the socket
 * opens, the rest runs in slices between requests, and anything that needs the store before it is
 * done runs the remaining steps at once (`finish`). Each file is validated whole before any of its
 * memories is taken in, so an unreadable one is still set aside as a unit.
 */
import { readFileSync, statSync } from 'node:fs';
import { z } from 'zod';
import { Memory } from '../../api/memory.js';
import { AppError, isErrno } from '../../errors.js';
import { quarantine } from '../../sys/quarantine.js';
import { MemoryFile, MemoryFileSchema } from './memory-file.js';

/** Memories validated or indexed per step. */
const SLICE = 2000;
/** Work per turn of the event loop in the background. */
const TURN_MS = 15;
/** Stores larger than this load wholly in the background: reading and parsing one file is a single step. */
const FOREGROUND_BYTES = 2 * 1024 * 1024;

const Envelope = MemoryFileSchema.extend({ memories: z.array(z.unknown()) });

export interface LoadTarget {
  /** A file read and validated: its memories join the store (not yet indexed). */
  take(file: MemoryFile): void;
  /** Indexes a slice of a taken file's memories. */
  index(file: MemoryFile, from: number, to: number): void;
  setAside(entry: { file: string; movedTo: string; error: string }): void;
  /** A taken file's save failed and its memories are back to what it holds on disk (see MemoryFile.save). */
  reverted(file: MemoryFile): void;
}

export class StoreLoader {
  private readonly steps: (() => void)[] = [];
  private timer: NodeJS.Immediate | undefined;
  private resolve: () => void = () => undefined;
  readonly done: Promise<void>;

  private readonly bytes: number;

  constructor(
    files: string[],
    private readonly target: LoadTarget,
  ) {
    this.done = new Promise((r) => (this.resolve = r));
    for (const path of files) this.steps.push(() => this.read(path));
    this.bytes = files.reduce((n, f) => n + sizeOf(f), 0);
  }

  get pending(): boolean {
    return this.steps.length > 0;
  }

  /** A small store loads now (for up to `ms`); a large one waits for `background` (or `finish`). */
  start(foregroundMs: number): void {
    if (this.bytes <= FOREGROUND_BYTES || !this.pending) this.run(foregroundMs);
  }

  /** Loads what is left in slices between other work. */
  background(): void {
    if (!this.timer) this.schedule();
  }

  /** Everything left, now. */
  finish(): void {
    if (this.timer) clearImmediate(this.timer);
    this.timer = undefined;
    this.run(Infinity);
  }

  stop(): void {
    if (this.timer) clearImmediate(this.timer);
    this.timer = undefined;
  }

  private schedule(): void {
    if (!this.pending) return;
    this.timer = setImmediate(() => {
      this.timer = undefined;
      this.run(TURN_MS);
      this.schedule();
    });
  }

  private run(ms: number): void {
    const until = performance.now() + ms;
    while (this.steps.length > 0 && performance.now() < until) (this.steps.shift() as () => void)();
    if (this.steps.length === 0) this.resolve();
  }

  /** Reads and parses a file, then queues its validation in slices, taking it in, and indexing it. */
  private read(path: string): void {
    let data: z.infer<typeof Envelope>;
    try {
      const text = readFileSync(path, 'utf8');
      const parsed = Envelope.safeParse(JSON.parse(text));
      if (!parsed.success) throw new AppError('state_corrupt', `state file ${path} does not match the expected shape`);
      data = parsed.data;
    } catch (err) {
      if (isErrno(err, 'ENOENT')) return;
      if (err instanceof SyntaxError) return this.corrupt(path, `state file ${path} is not valid JSON (${err.message})`);
      if (err instanceof AppError && err.code === 'state_corrupt') return this.corrupt(path, err.message);
      throw err;
    }
    const raw = data.memories;
    const memories: Memory[] = [];
    const later: (() => void)[] = [];
    let bad: string | undefined;
    for (let from = 0; from < raw.length; from += SLICE) {
      later.push(() => {
        if (bad !== undefined) return;
        for (let i = from; i < Math.min(raw.length, from + SLICE); i++) {
          const m = Memory.safeParse(raw[i]);
          if (!m.success) {
            const first = m.error.issues[0];
            bad = `state file ${path} does not match the expected shape (memories.${i}.${first?.path.join('.') ?? ''}: ${first?.message ?? 'schema mismatch'})`;
            return;
          }
          memories.push(m.data);
        }
      });
    }
    later.push(() => {
      if (bad !== undefined) return this.corrupt(path, bad);
      const file = MemoryFile.fromData(path, { version: 1, namespace: data.namespace, memories }, (f) => this.target.reverted(f));
      this.target.take(file);
      const indexing: (() => void)[] = [];
      for (let from = 0; from < memories.length; from += SLICE) indexing.push(() => this.target.index(file, from, Math.min(memories.length, from + SLICE)));
      this.steps.unshift(...indexing);
    });
    this.steps.unshift(...later);
  }

  /** One unreadable namespace must not keep the daemon (and every task) down: kept aside. */
  private corrupt(path: string, error: string): void {
    this.target.setAside({ file: path, movedTo: quarantine(path), error });
  }
}

function sizeOf(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0; // gone: the read step says so
  }
}
