import { mkdirSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Adapter } from 'lowdb';
import type { z } from 'zod';
import { AppError, isErrno } from '../errors.js';
import { writeFileAtomic } from './atomic-file.js';
import { quarantine } from './quarantine.js';

/** A state file that could not be read at start and was moved aside. */
export interface SetAside {
  file: string;
  movedTo: string;
  /** What was wrong with it (the `state_corrupt` message). */
  error: string;
}

/**
 * The one opener of the daemon's JSON state files (also a lowdb adapter): read and validate with a
 * zod schema, write atomically (temp file, fsync, rename). A file that does not parse or validate
 * is never an empty start: `read` makes it an error naming the file (state the daemon cannot run
 * without: it stops and says so), `readOrSetAside` moves it aside (state it can start again
 * without: counts, cursors, monitors).
 */
export class DurableJsonFile<S extends z.ZodType> implements Adapter<z.infer<S>> {
  constructor(
    private readonly file: string,
    private readonly schema: S,
  ) {
    mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  }

  async read(): Promise<z.infer<S> | null> {
    let text: string;
    try {
      text = await readFile(this.file, 'utf8');
    } catch (err) {
      if (isErrno(err, 'ENOENT')) return null;
      throw err;
    }
    return this.parse(text);
  }

  /** `read`, synchronously: for going back to what is on disk with nothing running in between. */
  readSync(): z.infer<S> | null {
    let text: string;
    try {
      text = readFileSync(this.file, 'utf8');
    } catch (err) {
      if (isErrno(err, 'ENOENT')) return null;
      throw err;
    }
    return this.parse(text);
  }

  /** `readSync`, except that a file that does not parse or validate is moved aside (sys/quarantine.ts) and the data is null. */
  readOrSetAside(): { data: z.infer<S> | null; setAside?: SetAside } {
    try {
      return { data: this.readSync() };
    } catch (err) {
      if (!(err instanceof AppError) || err.code !== 'state_corrupt') throw err;
      return { data: null, setAside: { file: this.file, movedTo: quarantine(this.file), error: err.message } };
    }
  }

  private parse(text: string): z.infer<S> {
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (err) {
      throw new AppError('state_corrupt', `state file ${this.file} is not valid JSON (${(err as Error).message})`);
    }
    const parsed = this.schema.safeParse(json);
    if (!parsed.success) {
      const first = parsed.error.issues[0];
      const where = first ? `${first.path.join('.')}: ${first.message}` : 'schema mismatch';
      throw new AppError('state_corrupt', `state file ${this.file} does not match the expected shape (${where})`);
    }
    return parsed.data;
  }

  write(data: z.infer<S>): Promise<void> {
    return writeFileAtomic(this.file, JSON.stringify(data));
  }
}

/**
 * Group commit: callers await a write that includes their change; changes made while a write is in
 * flight share the next one, so a burst of N changes costs two writes, not N.
 *
 * `revert`, when given, is called the moment a write fails, before anything else can run: it puts
 * the data back to what is on disk. The changes waiting for the next write are then gone too, so
 * their callers are told so with the same error instead of being answered by a write without them.
 * Without it, the data keeps the changes and the next commit writes them.
 */
export class GroupCommit {
  private inFlight = false;
  private next: Batch | null = null;
  private gathering = false;

  /**
   * `gather`: the first write of a burst waits for the rest of the current turn of the event loop,
   * so changes that arrive together (the ends a pipe delivered in one read) share one write and one
   * sync instead of the first going alone.
   */
  constructor(
    private readonly writeNow: () => Promise<void>,
    private readonly revert?: () => void,
    private readonly gather = false,
  ) {}

  commit(): Promise<void> {
    if (!this.next) {
      let resolve!: () => void;
      let reject!: (e: unknown) => void;
      const promise = new Promise<void>((res, rej) => {
        resolve = res;
        reject = rej;
      });
      this.next = { promise, resolve, reject };
    }
    const { promise } = this.next;
    if (this.inFlight || this.gathering) return promise;
    if (!this.gather) void this.flush();
    else {
      this.gathering = true;
      setImmediate(() => {
        this.gathering = false;
        if (!this.inFlight) void this.flush();
      });
    }
    return promise;
  }

  /** Never rejects: each failure goes to the callers of the batch it belongs to. */
  private async flush(): Promise<void> {
    while (this.next) {
      const batch = this.next;
      this.next = null;
      this.inFlight = true;
      try {
        await this.writeNow();
        batch.resolve();
      } catch (err) {
        if (this.revert) {
          const dropped = this.next as Batch | null;
          this.next = null;
          let cause = err;
          try {
            this.revert();
          } catch (revertErr) {
            cause = revertErr; // what is on disk cannot even be read: that is the news
          }
          dropped?.reject(cause);
          batch.reject(cause);
        } else {
          batch.reject(err);
        }
      } finally {
        this.inFlight = false;
      }
    }
  }
}

interface Batch {
  promise: Promise<void>;
  resolve: () => void;
  reject: (e: unknown) => void;
}
