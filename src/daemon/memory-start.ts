/** Start-up and shutdown of the memory side of the daemon: store, extractor, dreams, watcher, spool. */
import { realpathSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from '../config.js';
import type { Logger } from '../log.js';
import { DreamService } from '../dream/service.js';
import { UsageLedger } from '../llm/usage-ledger.js';
import {
  attachTeams,
  budgetedExtractor,
  chooseExtractor,
  defaultTranscriptDirs,
  drainSpool,
  MemoryService,
  PromptRecall,
  RankThread,
  sessionKey,
  startTranscriptWatcher,
} from '../memory/index.js';
import { InjectionLedger } from '../inject/ledger.js';
import type { Paths } from '../paths.js';

export interface MemoryRuntime {
  service: MemoryService;
  dreams: DreamService;
  /** Recall for each prompt of a session, remembering what each session got. */
  prompts: PromptRecall;
  /** Every injection (items, why, tokens), the tasks each session was told of, rejected memories. */
  injections: InjectionLedger;
  extractor: string;
  /** Model calls per day, and the daily token budget they share. */
  ledger: UsageLedger;
  /** After the socket answers: pick up spooled session ends, start watching transcripts. */
  afterReady(): void;
  stop(): Promise<void>;
}

/** How long after the socket answers background loading starts. */
const BACKGROUND_AFTER_MS = 100;

export async function startMemory(paths: Paths, config: Config, log: Logger): Promise<MemoryRuntime> {
  const started = Date.now();
  // Ranking runs beside the daemon's thread, which stays free for hooks and tasks during an ingest.
  const ranking = new RankThread(log);
  const extractor = await chooseExtractor(config, process.env, log, ranking.rank);
  const ledger = await UsageLedger.open(join(paths.stateDir, 'model-usage.json'), config.memory.dailyTokenBudget, log);
  const extract = extractor.backend ? budgetedExtractor(extractor.extract, extractor.backend, ledger, ranking.rank) : extractor.extract;
  const service = await MemoryService.open(paths, config, log, extract, () => ranking.warm());
  if (service.sessions.setAside)
    log.error(
      { movedTo: service.sessions.setAside },
      'the session registry could not be read; it was moved aside and transcripts will be read again from the start',
    );
  const dreams = await DreamService.open(paths, config, service, log, process.env, ledger);
  // A large store finishes loading in the background while the daemon already answers; team
  // directories are read once it is done.
  let stopTeams: () => Promise<void> = async () => undefined;
  let stopped = false;
  const loaded = service.store.whenLoaded().then(async () => {
    for (const a of service.store.setAside)
      log.error(
        { file: a.file, movedTo: a.movedTo, problem: a.error },
        'a memory file could not be read; it was moved aside and the daemon runs without it (to bring it back: stop the daemon, fix the file, move it back)',
      );
    log.info(
      {
        memories: service.store.size,
        episodes: service.episodes.size,
        sessions: service.sessions.list().length,
        extractor: extractor.describe,
        ms: Date.now() - started,
      },
      'memory loaded',
    );
    if (stopped) return;
    const stop = await attachTeams(service.store, config.teams, log, true);
    if (stopped) await stop();
    else stopTeams = stop;
  });
  loaded.catch((err: unknown) => log.error({ err: (err as Error).message }, 'team memory could not be attached'));
  let stopWatcher: () => Promise<void> = async () => undefined;
  let kick: NodeJS.Timeout | undefined;
  const ingestedBytes = (path: string) => {
    try {
      return service.sessions.get(sessionKey(realpathSync(path)))?.offset;
    } catch {
      return undefined;
    }
  };
  const prompts = PromptRecall.open(
    join(paths.stateDir, 'prompt-injections.json'),
    { recall: (req, within) => service.recall(req, within), said: (id) => service.said(id) },
    log,
  );
  const injections = InjectionLedger.open(join(paths.stateDir, 'injections.jsonl'), log);
  service.rejected = (project, id, n) => injections.isRejected(project, id, n);
  return {
    service,
    dreams,
    prompts,
    injections,
    extractor: extractor.describe,
    ledger,
    afterReady() {
      // Only now, and a moment later: the first clients (an autostarting CLI polling status) get
      // their answer before the first slice of background loading (one parse of a large file).
      kick = setTimeout(() => {
        service.store.loadInBackground();
        service.episodes.indexInBackground();
      }, BACKGROUND_AFTER_MS);
      const spooled = drainSpool(paths.spoolDir, (req) => service.ingest(req), log);
      if (spooled > 0) log.info({ sessions: spooled }, 'ingesting session ends handed over while the daemon was down');
      if (!config.transcripts.watch) return;
      const dirs = config.transcripts.dirs ?? defaultTranscriptDirs();
      startTranscriptWatcher({ dirs, idleSeconds: config.transcripts.idleSeconds, ingestedBytes, ingest: (req) => service.ingest(req), log }).then(
        (stop) => {
          if (stopped) stop().catch((err: unknown) => log.warn({ err: (err as Error).message }, 'stopping the transcript watcher failed'));
          else stopWatcher = stop;
        },
        (err: unknown) => log.warn({ err: (err as Error).message }, 'the transcript watcher could not start'),
      );
    },
    async stop() {
      stopped = true;
      clearTimeout(kick);
      service.store.stopLoading();
      service.episodes.close();
      dreams.stop();
      if (!service.store.loading) await loaded.catch(() => undefined); // never settles once loading was stopped
      await stopTeams();
      await stopWatcher();
      await prompts.flush();
      await ranking.close();
    },
  };
}
