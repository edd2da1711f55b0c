/** The monitors and their recent history on disk (`<state>/monitors.json`): read at start, rewritten whole after each change. */
import { mkdirSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { z } from 'zod';
import { Monitor } from '../api/monitors.js';
import { AppError, isErrno } from '../errors.js';
import { writeFileAtomic } from '../sys/atomic-file.js';

const MonitorFile = z.object({ version: z.literal(1), monitors: z.array(Monitor.omit({ p50Ms: true })) });
export type StoredMonitor = z.infer<typeof MonitorFile>['monitors'][number];

export class MonitorStore {
  private writing: Promise<void> = Promise.resolve();
  private dirty = false;

  constructor(readonly file: string) {
    mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  }

  load(): StoredMonitor[] {
    let text: string;
    try {
      text = readFileSync(this.file, 'utf8');
    } catch (err) {
      if (isErrno(err, 'ENOENT')) return [];
      throw err;
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (err) {
      throw new AppError('state_corrupt', `state file ${this.file} is not valid JSON (${(err as Error).message})`);
    }
    const r = MonitorFile.safeParse(json);
    if (!r.success) throw new AppError('state_corrupt', `state file ${this.file} does not match the expected shape`);
    return r.data.monitors;
  }

  /**
   * Saves what `snapshot` gives when the write runs: saves asked for while one is in flight share the
   * next write (temp file + rename: the file holds the old list or the new one, never half).
   */
  save(snapshot: () => StoredMonitor[]): Promise<void> {
    if (this.dirty) return this.writing;
    this.dirty = true;
    this.writing = this.writing
      .catch(() => undefined)
      .then(() => {
        this.dirty = false;
        return writeFileAtomic(this.file, JSON.stringify({ version: 1, monitors: snapshot() }));
      });
    return this.writing;
  }
}
