/** One namespace's memories on disk: a lowdb JSON file written atomically (temp, fsync, rename). */
import { createHash } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { Low } from 'lowdb';
import { z } from 'zod';
import { Memory } from '../../api/memory.js';
import { isErrno } from '../../errors.js';
import { DurableJsonFile, GroupCommit } from '../../sys/state-file.js';
import type { Namespace } from './model.js';

const NamespaceSchema = z.discriminatedUnion('scope', [
  z.object({ scope: z.literal('user') }),
  z.object({ scope: z.literal('project'), project: z.string() }),
  z.object({ scope: z.literal('team'), team: z.string() }),
]);

export const MemoryFileSchema = z.object({ version: z.literal(1), namespace: NamespaceSchema, memories: z.array(Memory) });
export type MemoryFileData = z.infer<typeof MemoryFileSchema>;

/** File of a namespace: readable names, a hash so two projects with one basename never collide. */
export function fileFor(dir: string, ns: Namespace): string {
  switch (ns.scope) {
    case 'user':
      return join(dir, 'user.json');
    case 'team':
      throw new Error('team memories live in their team directory, not in a JSON file');
    case 'project': {
      const slug =
        basename(ns.project)
          .toLowerCase()
          .replace(/[^a-z0-9]+/g, '-')
          .replace(/^-|-$/g, '')
          .slice(0, 40) || 'root';
      const hash = createHash('sha256').update(ns.project).digest('hex').slice(0, 12);
      return join(dir, 'projects', `${slug}-${hash}.json`);
    }
  }
}

/** Every namespace file present under `dir`. */
export function listMemoryFiles(dir: string): string[] {
  const out: string[] = [];
  const add = (sub: string) => {
    try {
      for (const f of readdirSync(join(dir, sub))) if (f.endsWith('.json')) out.push(join(dir, sub, f));
    } catch (err) {
      if (!isErrno(err, 'ENOENT')) throw err;
    }
  };
  add('.');
  add('projects');
  return out.filter((f) => basename(f) !== 'sessions.json');
}

export class MemoryFile {
  private readonly db: Low<MemoryFileData>;
  private readonly adapter: DurableJsonFile<typeof MemoryFileSchema>;
  private readonly group: GroupCommit;

  /** `onRevert`: a save failed and the memories are back to what the file holds (see `save`). */
  private constructor(
    readonly path: string,
    readonly namespace: Namespace,
    initial: MemoryFileData,
    onRevert: (file: MemoryFile) => void,
  ) {
    this.adapter = new DurableJsonFile(path, MemoryFileSchema);
    this.db = new Low(this.adapter, initial);
    this.group = new GroupCommit(
      () => this.db.write(),
      () => {
        this.db.data = this.adapter.readSync() ?? { version: 1, namespace, memories: [] };
        onRevert(this);
      },
    );
  }

  static async load(path: string, onRevert: (file: MemoryFile) => void): Promise<MemoryFile | null> {
    const adapter = new DurableJsonFile(path, MemoryFileSchema);
    const data = await adapter.read();
    return data ? new MemoryFile(path, data.namespace, data, onRevert) : null;
  }

  /** A file whose contents were read and validated elsewhere (the store's start-up, in slices). */
  static fromData(path: string, data: MemoryFileData, onRevert: (file: MemoryFile) => void): MemoryFile {
    return new MemoryFile(path, data.namespace, data, onRevert);
  }

  static create(path: string, namespace: Namespace, onRevert: (file: MemoryFile) => void): MemoryFile {
    return new MemoryFile(path, namespace, { version: 1, namespace, memories: [] }, onRevert);
  }

  get memories(): Memory[] {
    return this.db.data.memories;
  }

  /**
   * Durable once resolved; concurrent saves share writes. When the write fails (a full disk), the
   * memories go back to what the file holds, so what could not be saved is not served either.
   */
  save(): Promise<void> {
    return this.group.commit();
  }
}
