/** The monitors and their recent history on disk (`<state>/monitors.json`): read at start, rewritten whole after each change. */
import { z } from 'zod';
import { Monitor } from '../api/monitors.js';
import { DurableJsonFile, GroupCommit, type SetAside } from '../sys/state-file.js';

const MonitorFile = z.object({ version: z.literal(1), monitors: z.array(Monitor.omit({ p50Ms: true })) });
export type StoredMonitor = z.infer<typeof MonitorFile>['monitors'][number];

export class MonitorStore {
  private readonly file: DurableJsonFile<typeof MonitorFile>;
  private readonly committer: GroupCommit;
  private snapshot: () => StoredMonitor[] = () => [];

  constructor(path: string) {
    this.file = new DurableJsonFile(path, MonitorFile);
    this.committer = new GroupCommit(() => this.file.write({ version: 1, monitors: this.snapshot() }));
  }

  /** The saved monitors; a file that cannot be read is moved aside (monitors are set up again, not lost work). */
  load(): { monitors: StoredMonitor[]; setAside?: SetAside } {
    const { data, setAside } = this.file.readOrSetAside();
    return { monitors: data?.monitors ?? [], ...(setAside && { setAside }) };
  }

  /**
   * Saves what `snapshot` gives when the write runs: saves asked for while one is in flight share the
   * next write (the file holds the old list or the new one, never half).
   */
  save(snapshot: () => StoredMonitor[]): Promise<void> {
    this.snapshot = snapshot;
    return this.committer.commit();
  }
}
