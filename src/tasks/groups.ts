/**
 * Task groups and their parallel limits, kept in `<state>/groups.json` (written atomically; the
 * daemon is the one writer). The `default` group always exists and takes its limit from the
 * config's `maxParallel`, so a reload that changes it applies to the default group at once.
 */
import { join } from 'node:path';
import { z } from 'zod';
import { DEFAULT_GROUP } from '../api/groups.js';
import { AppError } from '../errors.js';
import { DurableJsonFile } from '../sys/state-file.js';

const GroupsFile = z.object({ version: z.literal(1), groups: z.record(z.string(), z.object({ parallel: z.number().int().min(1) })) });
type GroupsFile = z.infer<typeof GroupsFile>;

export class GroupStore {
  private constructor(
    private readonly file: DurableJsonFile<typeof GroupsFile>,
    private data: GroupsFile,
    private readonly defaultLimit: () => number,
  ) {}

  static async open(stateDir: string, defaultLimit: () => number): Promise<GroupStore> {
    const file = new DurableJsonFile(join(stateDir, 'groups.json'), GroupsFile);
    const data = (await file.read()) ?? { version: 1 as const, groups: {} };
    return new GroupStore(file, data, defaultLimit);
  }

  /** Every group with its limit, `default` first. */
  list(): { name: string; parallel: number }[] {
    const named = Object.entries(this.data.groups)
      .filter(([name]) => name !== DEFAULT_GROUP)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([name, g]) => ({ name, parallel: g.parallel }));
    return [{ name: DEFAULT_GROUP, parallel: this.limit(DEFAULT_GROUP) }, ...named];
  }

  has(name: string): boolean {
    return name === DEFAULT_GROUP || name in this.data.groups;
  }

  /** How many tasks of the group may run at once (an unknown group, e.g. one removed under a queued task: 1). */
  limit(name: string): number {
    if (name === DEFAULT_GROUP) return this.data.groups[DEFAULT_GROUP]?.parallel ?? this.defaultLimit();
    return this.data.groups[name]?.parallel ?? 1;
  }

  /** The group, or a `not_found` error naming how to create it. */
  check(name: string): void {
    if (!this.has(name)) throw new AppError('not_found', `no group ${name} (create it with \`nightshift group add ${name} --parallel N\`)`);
  }

  async add(name: string, parallel: number): Promise<void> {
    if (this.has(name)) throw new AppError('conflict', `group ${name} already exists (change its limit with \`nightshift group parallel ${name} N\`)`);
    await this.save({ ...this.data.groups, [name]: { parallel } });
  }

  async setParallel(name: string, parallel: number): Promise<void> {
    this.check(name);
    await this.save({ ...this.data.groups, [name]: { parallel } });
  }

  async remove(name: string): Promise<void> {
    this.check(name);
    if (name === DEFAULT_GROUP) throw new AppError('conflict', `the ${DEFAULT_GROUP} group cannot be removed`);
    const { [name]: _gone, ...rest } = this.data.groups;
    await this.save(rest);
  }

  /** Saved before it is used: a failed write changes nothing. */
  private async save(groups: GroupsFile['groups']): Promise<void> {
    const next: GroupsFile = { version: 1, groups };
    await this.file.write(next);
    this.data = next;
  }
}
