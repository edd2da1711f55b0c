/**
 * The task state on disk: `tasks.json`, a snapshot in the format every release wrote, and beside it
 * `tasks.json.journal`, the changes made since, one JSON line each. A commit appends one line per
 * task it changed in a single write to a file opened with O_DSYNC, so saving costs the same with 10
 * tasks kept or 10,000 (rewriting and fsyncing the whole snapshot took ~20 ms more per `run` with
 * 550 kept). Once the journal outgrows the snapshot it is compacted: the snapshot is rewritten
 * (temp file, fsync, rename), then the journal emptied. Each snapshot names the generation of the
 * journal that follows it and each line carries its generation, so the lines of an older journal
 * (a daemon killed between those two steps) are skipped rather than replayed over newer state.
 *
 * A last line without its newline was never acknowledged (a write cut short): it is dropped.
 * Any other line that does not parse makes the state corrupt, as a snapshot that does not parse does.
 */
import { constants, readFileSync, renameSync, statSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { z } from 'zod';
import { AppError, diskFullError, isErrno } from '../errors.js';
import { DurableJsonFile } from '../sys/state-file.js';
import { writeFileAtomic } from '../sys/atomic-file.js';
import { Entry, StateData } from './model.js';

/** One change: a task's entry as it now is, or its removal; with the next id to hand out. */
const Change = z.object({ nextId: z.number().int().min(1), set: Entry.optional(), del: z.string().optional() });
export type Change = z.infer<typeof Change>;
/** A change as a journal line: `gen` is the generation of the journal it was written to. */
const JournalLine = Change.extend({ gen: z.number().int().min(0) });

/** The journal is compacted once it is larger than this and than the snapshot. */
const COMPACT_MIN_BYTES = 256 * 1024;

export function journalPath(stateFile: string): string {
  return `${stateFile}.journal`;
}

export const emptyState = (): StateData => ({ version: 1, nextId: 1, tasks: [] });

/** The generation of the journal a snapshot is followed by (0 for a snapshot older than journals). */
const generationOf = (data: StateData): number => data.journal ?? 0;

interface Loaded {
  data: StateData;
  /** Bytes of whole lines in the journal (a torn last line excluded). */
  journalBytes: number;
  snapshotBytes: number;
}

/** The state as a daemon would load it: the snapshot with the journal replayed over it. */
export function readTaskState(stateFile: string): Loaded {
  const data = new DurableJsonFile(stateFile, StateData).readSync() ?? emptyState();
  const snapshotBytes = sizeOf(stateFile);
  const file = journalPath(stateFile);
  let text = '';
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    if (!isErrno(err, 'ENOENT')) throw err;
  }
  const whole = text.slice(0, text.lastIndexOf('\n') + 1);
  const byId = new Map(data.tasks.map((e) => [e.task.id, e] as const));
  let line = 0;
  for (const raw of whole.split('\n')) {
    line += 1;
    if (raw === '') continue;
    const rec = JournalLine.safeParse(parseJson(raw));
    if (!rec.success) throw new AppError('state_corrupt', `state file ${file} has an unreadable change on line ${line}`);
    if (rec.data.gen !== generationOf(data)) continue;
    data.nextId = Math.max(data.nextId, rec.data.nextId);
    if (rec.data.set) byId.set(rec.data.set.task.id, rec.data.set);
    if (rec.data.del !== undefined) byId.delete(rec.data.del);
  }
  data.tasks = [...byId.values()];
  return { data, journalBytes: Buffer.byteLength(whole), snapshotBytes };
}

function sizeOf(file: string): number {
  try {
    return statSync(file).size;
  } catch {
    return 0;
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

export class StateJournal {
  private fh: FileHandle | null = null;
  /** A failed append may have left part of a line: the next save rewrites the snapshot instead. */
  private torn = false;

  private constructor(
    private readonly stateFile: string,
    private journalBytes: number,
    private snapshotBytes: number,
    private generation: number,
  ) {}

  /** Loads the state; a torn last journal line is cut off, so appends start on a line of their own. */
  static async open(stateFile: string): Promise<{ store: StateJournal; data: StateData }> {
    const loaded = readTaskState(stateFile);
    const store = new StateJournal(stateFile, loaded.journalBytes, loaded.snapshotBytes, generationOf(loaded.data));
    if (sizeOf(journalPath(stateFile)) > loaded.journalBytes) await (await store.journal()).truncate(loaded.journalBytes);
    return { store, data: loaded.data };
  }

  /** Moves the snapshot and its journal aside (`--recover`); where the snapshot went, or null if there was none. */
  static moveAside(stateFile: string, suffix: string): string | null {
    let movedTo: string | null = `${stateFile}${suffix}`;
    try {
      renameSync(stateFile, movedTo);
    } catch {
      movedTo = null;
    }
    try {
      renameSync(journalPath(stateFile), `${journalPath(stateFile)}${suffix}`);
    } catch {
      // no journal
    }
    return movedTo;
  }

  /** True when the next save should rewrite the snapshot rather than append. */
  get wantsCompaction(): boolean {
    return this.torn || (this.journalBytes > COMPACT_MIN_BYTES && this.journalBytes > this.snapshotBytes);
  }

  /** Appends the records in one durable write; on failure the journal is cut back to what it held. */
  async append(changes: Change[]): Promise<void> {
    const file = journalPath(this.stateFile);
    const text = Buffer.from(changes.map((c) => `${JSON.stringify({ gen: this.generation, ...c })}\n`).join(''));
    try {
      const fh = await this.journal();
      const { bytesWritten } = await fh.write(text);
      if (bytesWritten !== text.length) throw Object.assign(new Error(`ENOSPC: short write to ${file}`), { code: 'ENOSPC' });
      this.journalBytes += text.length;
    } catch (err) {
      await this.fh?.truncate(this.journalBytes).catch(() => {
        this.torn = true;
      });
      throw diskFullError(err, file);
    }
  }

  /** Rewrites the snapshot with everything, then empties the journal, which starts a new generation. */
  async compact(data: StateData): Promise<void> {
    const generation = this.generation + 1;
    const text = JSON.stringify({ ...data, journal: generation });
    await writeFileAtomic(this.stateFile, text);
    this.snapshotBytes = Buffer.byteLength(text);
    this.generation = generation;
    // Were this cut short, the old journal's lines are of an older generation: the next load skips them.
    await (await this.journal()).truncate(0);
    this.journalBytes = 0;
    this.torn = false;
  }

  get journalEmpty(): boolean {
    return this.journalBytes === 0 && !this.torn;
  }

  async close(): Promise<void> {
    const fh = this.fh;
    this.fh = null;
    await fh?.close();
  }

  private async journal(): Promise<FileHandle> {
    this.fh ??= await open(journalPath(this.stateFile), constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_DSYNC, 0o600);
    return this.fh;
  }
}
