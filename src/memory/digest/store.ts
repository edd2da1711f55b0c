/**
 * Session digests on disk: one small JSON file per session file (`<key>.json`), written atomically,
 * read on demand (recall reads the few most recent of a project) and cached.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { SessionDigest } from '../../api/digest.js';
import { DurableJsonFile } from '../../sys/state-file.js';
import { redact } from '../../redact/redact.js';

const CACHE_MAX = 2000;

const mask = (s: string): string => redact(s).text;
const maskText = <T extends { text: string }>(t: T): T => ({ ...t, text: mask(t.text) });

/**
 * A digest as read from disk, its texts masked. Digests are written from masked messages; one
 * written by an earlier version may hold a command as it was typed. Masking is idempotent, and a
 * digest is small and cached.
 */
function masked(d: SessionDigest): SessionDigest {
  return {
    ...d,
    asked: d.asked.map(maskText),
    commands: d.commands.map((c) => ({ ...c, command: mask(c.command) })),
    ...(d.declined !== undefined && { declined: d.declined.map((c) => ({ ...c, command: mask(c.command) })) }),
    errors: d.errors.map((e) => ({ ...e, command: mask(e.command), text: mask(e.text) })),
    commits: d.commits.map((c) => (c.message === undefined ? c : { ...c, message: mask(c.message) })),
    pushes: d.pushes.map((p) => ({ ...p, command: mask(p.command) })),
    pendingTasks: d.pendingTasks.map(maskText),
    open: d.open.map(maskText),
    ...(d.question !== undefined && { question: maskText(d.question) }),
    ...(d.plan !== undefined && { plan: maskText(d.plan) }),
  };
}

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
    const read = new DurableJsonFile(this.file(key), SessionDigest).readOrSetAside().data;
    const found = read === null ? null : masked(read);
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
