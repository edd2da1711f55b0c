/**
 * Session ends that arrive while the daemon is down (a hook cannot wait for it to start) are
 * written here as small JSON files and ingested when the daemon starts. Nothing is lost.
 */
import { mkdirSync, readdirSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { IngestRequest } from '../api/memory.js';
import type { Logger } from '../log.js';

export function spoolIngest(dir: string, req: IngestRequest): string {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const file = join(dir, `${Date.now()}-${process.pid}-${Math.random().toString(36).slice(2, 8)}.json`);
  writeFileSync(`${file}.tmp`, JSON.stringify(req), { mode: 0o600 });
  renameSync(`${file}.tmp`, file);
  return file;
}

/** Queues every spooled request; a file is removed once its ingest was queued successfully. */
export function drainSpool(dir: string, enqueue: (req: IngestRequest) => Promise<unknown>, log: Logger): number {
  let files: string[];
  try {
    files = readdirSync(dir).filter((f) => f.endsWith('.json')).sort();
  } catch {
    return 0;
  }
  for (const f of files) {
    const path = join(dir, f);
    let req: IngestRequest;
    try {
      req = IngestRequest.parse(JSON.parse(readFileSync(path, 'utf8')));
    } catch (err) {
      log.warn({ file: path, err: (err as Error).message }, 'unreadable spooled session end; removed');
      unlinkSync(path);
      continue;
    }
    enqueue(req).then(
      () => unlinkSync(path),
      (err: unknown) => {
        log.warn({ path: req.path, err: (err as Error).message }, 'spooled ingest failed; removed');
        unlinkSync(path);
      },
    );
  }
  return files.length;
}
