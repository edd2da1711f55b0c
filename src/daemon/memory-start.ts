/** Start-up and shutdown of the memory side of the daemon: store, extractor, dreams, watcher, spool. */
import { realpathSync } from 'node:fs';
import type { Config } from '../config.js';
import type { Logger } from '../log.js';
import { DreamService } from '../dream/service.js';
import { chooseExtractor } from '../memory/extract/choose.js';
import { MemoryService } from '../memory/service.js';
import { sessionKey } from '../memory/sessions.js';
import { attachTeams } from '../memory/team-watch.js';
import { drainSpool } from '../memory/spool.js';
import { defaultTranscriptDirs, startTranscriptWatcher } from '../memory/watcher.js';
import type { Paths } from '../paths.js';

export interface MemoryRuntime {
  service: MemoryService;
  dreams: DreamService;
  extractor: string;
  /** After the socket answers: pick up spooled session ends, start watching transcripts. */
  afterReady(): void;
  stop(): Promise<void>;
}

export async function startMemory(paths: Paths, config: Config, log: Logger): Promise<MemoryRuntime> {
  const started = Date.now();
  const extractor = await chooseExtractor(config, process.env, log);
  const service = await MemoryService.open(paths, config, log, extractor.extract);
  for (const a of service.store.setAside) log.error({ file: a.file, movedTo: a.movedTo, problem: a.error }, 'a memory file could not be read; it was moved aside and the daemon runs without it (to bring it back: stop the daemon, fix the file, move it back)');
  if (service.sessions.setAside) log.error({ movedTo: service.sessions.setAside }, 'the session registry could not be read; it was moved aside and transcripts will be read again from the start');
  const stopTeams = await attachTeams(service.store, config.teams, log, true);
  const dreams = await DreamService.open(paths, config, service, log, process.env);
  log.info({ memories: service.store.size, episodes: service.episodes.size, sessions: service.sessions.list().length, extractor: extractor.describe, ms: Date.now() - started }, 'memory loaded');
  let stopWatcher: () => Promise<void> = async () => undefined;
  let stopped = false;
  const ingestedBytes = (path: string) => {
    try {
      return service.sessions.get(sessionKey(realpathSync(path)))?.offset;
    } catch {
      return undefined;
    }
  };
  return {
    service,
    dreams,
    extractor: extractor.describe,
    afterReady() {
      const spooled = drainSpool(paths.spoolDir, (req) => service.ingest(req), log);
      if (spooled > 0) log.info({ sessions: spooled }, 'ingesting session ends handed over while the daemon was down');
      if (!config.transcripts.watch) return;
      const dirs = config.transcripts.dirs ?? defaultTranscriptDirs();
      startTranscriptWatcher({ dirs, idleSeconds: config.transcripts.idleSeconds, ingestedBytes, ingest: (req) => service.ingest(req), log }).then(
        (stop) => {
          if (stopped) void stop();
          else stopWatcher = stop;
        },
        (err: unknown) => log.warn({ err: (err as Error).message }, 'the transcript watcher could not start'),
      );
    },
    async stop() {
      stopped = true;
      dreams.stop();
      await stopTeams();
      await stopWatcher();
    },
  };
}
