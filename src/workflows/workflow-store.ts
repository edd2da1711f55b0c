/**
 * `workflows.json` in the state dir: every workflow's record (its tasks by name, their needs).
 * Written whole (temp file, fsync, rename) on each change, changes arriving together sharing one
 * write, as schedules.json is. The tasks' states are not kept here: they are derived from the tasks.
 * A write that fails (a full disk) puts the data back to what the file holds, so a change that was
 * refused is neither served nor written later.
 */
import { z } from 'zod';
import { WorkflowRecord } from '../api/workflows.js';
import { DurableJsonFile, GroupCommit } from '../sys/state-file.js';

const WorkflowState = z.object({
  version: z.literal(1),
  nextId: z.number().int().min(1),
  workflows: z.array(WorkflowRecord),
});
type WorkflowState = z.infer<typeof WorkflowState>;

const empty = (): WorkflowState => ({ version: 1, nextId: 1, workflows: [] });

export class WorkflowStore {
  private readonly file: DurableJsonFile<typeof WorkflowState>;
  private readonly committer: GroupCommit;
  private data: WorkflowState;

  constructor(path: string) {
    this.file = new DurableJsonFile(path, WorkflowState);
    this.data = this.file.readSync() ?? empty();
    this.committer = new GroupCommit(
      () => this.file.write(this.data),
      () => {
        this.data = this.file.readSync() ?? empty();
      },
    );
  }

  allocateId(): string {
    const id = `w${this.data.nextId}`;
    this.data.nextId += 1;
    return id;
  }

  list(): readonly WorkflowRecord[] {
    return this.data.workflows;
  }

  get(id: string): WorkflowRecord | undefined {
    return this.data.workflows.find((w) => w.id === id);
  }

  /** Adds or replaces the record with its id. */
  put(record: WorkflowRecord): void {
    const i = this.data.workflows.findIndex((w) => w.id === record.id);
    if (i === -1) this.data.workflows.push(record);
    else this.data.workflows[i] = record;
  }

  delete(id: string): void {
    const i = this.data.workflows.findIndex((w) => w.id === id);
    if (i !== -1) this.data.workflows.splice(i, 1);
  }

  /** Resolves once every change made so far is on disk; rejects (the changes undone) when that write fails. */
  save(): Promise<void> {
    return this.committer.commit();
  }
}
