/**
 * `schedules.json` in the state dir: every schedule with its latest firings. Written whole (temp
 * file, fsync, rename) on each change; changes arriving together share one write. A file that does
 * not parse stops the daemon naming it, as a corrupt tasks.json does. A write that fails (a full
 * disk) puts the data back to what the file holds: a change that was refused is not served, nor
 * written later.
 */
import { z } from 'zod';
import { Schedule } from '../api/schedules.js';
import { GroupCommit, DurableJsonFile } from '../sys/state-file.js';

const ScheduleState = z.object({
  version: z.literal(1),
  nextId: z.number().int().min(1),
  schedules: z.array(
    Schedule.extend({
      /** The firing time that comes after the last one, as known while running: a catch-up runs when it is past at start. */
      dueAt: z.string().nullable(),
      /** `overlap: queue`: the due time of the firing waiting for the running task to end (kept across restarts). */
      waitingSince: z.string().optional(),
    }),
  ),
});
export type ScheduleState = z.infer<typeof ScheduleState>;
export type StoredSchedule = ScheduleState['schedules'][number];

/** Firings kept per schedule. */
export const FIRINGS_KEPT = 20;

const empty = (): ScheduleState => ({ version: 1, nextId: 1, schedules: [] });

export class ScheduleStore {
  private readonly file: DurableJsonFile<typeof ScheduleState>;
  private readonly committer: GroupCommit;
  private current: ScheduleState;

  /** `onRevert`: a save failed and `data` is back to what the file holds (new objects). */
  constructor(path: string, onRevert: () => void = () => undefined) {
    this.file = new DurableJsonFile(path, ScheduleState);
    this.current = this.file.readSync() ?? empty();
    this.committer = new GroupCommit(
      () => this.file.write(this.current),
      () => {
        this.current = this.file.readSync() ?? empty();
        onRevert();
      },
    );
  }

  get data(): ScheduleState {
    return this.current;
  }

  allocateId(): string {
    const id = `s${this.data.nextId}`;
    this.data.nextId += 1;
    return id;
  }

  /** Resolves once every change made so far is on disk; rejects (the changes undone) when that write fails. */
  save(): Promise<void> {
    return this.committer.commit();
  }
}
