/**
 * Session digests on disk: one small JSON file per session file (`<key>.json`), written atomically,
 * read on demand (recall reads the few most recent of a project) and cached.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { SessionDigest } from '../../api/digest.js';
import { DurableJsonFile } from '../../sys/state-file.js';

const CACHE_MAX = 2000;

export class DigestStore {
  private readonly cache = new Map<string, SessionDigest | null>();

  constructor(private readonly dir: string) {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
  }

  private file(key: string): string {
    return join(this.dir, `${key}.json`);
  }

  /** The digest of a session file; undefined when there is none (or it cannot be read: it is moved aside and the next ingest writes it again). */
  get(key: string): SessionDigest | undefined {
    const hit = this.cache.get(key);
    if (hit !== undefined) return hit ?? undefined;
    const found = new DurableJsonFile(this.file(key), SessionDigest).readOrSetAside().data;
    this.remember(key, found);
    return found ?? undefined;
  }

  async put(digest: SessionDigest): Promise<void> {
    await new DurableJsonFile(this.file(digest.key), SessionDigest).write(digest);
    this.remember(digest.key, digest);
  }

  private remember(key: string, digest: SessionDigest | null): void {
    if (this.cache.size >= CACHE_MAX) this.cache.clear();
    this.cache.set(key, digest);
  }
}
