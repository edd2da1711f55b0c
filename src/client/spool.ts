/**
 * A session end the daemon could not take now (it is down, or slow) is written to the spool, a
 * small JSON file each, and ingested when the daemon starts (memory/ingest/spool.ts). Nothing is lost.
 */
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { IngestRequest } from '../api/memory.js';

export function spoolIngest(dir: string, req: IngestRequest): string {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const file = join(dir, `${Date.now()}-${process.pid}-${Math.random().toString(36).slice(2, 8)}.json`);
  // Written whole, then renamed: the daemon only ever reads `*.json` files, never half of one.
  writeFileSync(`${file}.tmp`, JSON.stringify(req), { mode: 0o600 });
  renameSync(`${file}.tmp`, file);
  return file;
}
