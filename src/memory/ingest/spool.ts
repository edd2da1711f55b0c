/**
 * Session ends that arrived while the daemon was down (a hook cannot wait for it to start) were
 * written to the spool as small JSON files (client/spool.ts); they are ingested when the daemon starts.
 */
import { readdirSync, readFileSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { IngestRequest } from '../../api/memory.js';
import type { Logger } from '../../log.js';

/** Queues every spooled request; a file is removed once its ingest was queued successfully. */
export function drainSpool(dir: string, enqueue: (req: IngestRequest) => Promise<unknown>, log: Logger): number {
  let files: string[];
  try {
    files = readdirSync(dir)
      .filter((f) => f.endsWith('.json'))
      .sort();
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
    const remove = () => {
      try {
        unlinkSync(path);
      } catch (err) {
        log.warn({ file: path, err: (err as Error).message }, 'could not remove a spooled session end');
      }
    };
    enqueue(req).then(remove, (err: unknown) => {
      log.warn({ path: req.path, err: (err as Error).message }, 'spooled ingest failed; removed');
      remove();
    });
  }
  return files.length;
}
