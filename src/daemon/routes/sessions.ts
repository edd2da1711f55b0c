import { statPath } from '../../sys/path-error.js';
import { isAbsolute } from 'node:path';
import type { IngestRequest } from '../../api/memory-sessions.js';
import { AppError } from '../../errors.js';
import type { Logger } from '../../log.js';
import type { MemoryService } from '../../memory/index.js';
import type { Handlers } from '../http.js';

/** Starts the ingest of a transcript; a path that cannot be a transcript is refused now, not later in the log. */
export function ingestTranscript(memory: MemoryService, req: IngestRequest): ReturnType<MemoryService['ingest']> {
  if (!isAbsolute(req.path)) throw new AppError('bad_request', `transcript path must be absolute, got ${req.path}`);
  const file = statPath(req.path);
  if (!file.ok)
    throw new AppError(
      file.errno === 'ENOENT' ? 'not_found' : 'bad_request',
      file.errno === 'ENOENT' ? `transcript not found: ${req.path}` : `transcript ${req.path} ${file.why}`,
    );
  if (!file.stat.isFile())
    throw new AppError('bad_request', `transcript ${req.path} is ${file.stat.isDirectory() ? 'a directory' : 'not a regular file'}, not a transcript file`);
  return memory.ingest(req);
}

export function sessionHandlers(memory: MemoryService, log: Logger): Pick<Handlers, 'ingest' | 'getSession' | 'reextract'> {
  return {
    ingest: async ({ body: req }) => {
      const job = ingestTranscript(memory, req);
      if (req.wait) return { json: { queued: false, summary: await job } };
      // Handed over: the caller (a hook) returns at once; failures are the log's to tell.
      job.catch((err: unknown) => log.warn({ path: req.path, err: (err as Error).message }, 'background ingest failed'));
      return { status: 202, json: { queued: true } };
    },
    getSession: async ({ params }) => ({ json: memory.showSession(params.id) }),
    reextract: async ({ body }) => ({ json: await memory.reextract(body.project, { ...(body.fallenBack && { fallenBack: true }) }) }),
  };
}
