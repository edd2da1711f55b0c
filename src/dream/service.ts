/** The daemon's dream: one at a time, on demand or on schedule, with a model when there is one. */
import type { DreamReport } from '../api/dream.js';
import type { Config } from '../config.js';
import { AppError } from '../errors.js';
import type { Logger } from '../log.js';
import type { MemoryService } from '../memory/service.js';
import type { Paths } from '../paths.js';
import type { ModelReview } from './model-review.js';
import { DreamReports } from './reports.js';
import { dream } from './run.js';
import { startDreamSchedule, type Scheduler } from './schedule.js';

export class DreamService {
  readonly reports: DreamReports;
  private running: Promise<DreamReport> | null = null;
  private scheduler: Scheduler | null = null;

  private constructor(
    private readonly paths: Paths,
    private readonly config: Config,
    private readonly memory: MemoryService,
    private readonly log: Logger,
    private readonly review: ModelReview | undefined,
  ) {
    this.reports = new DreamReports(paths.dreamsDir);
  }

  static async open(paths: Paths, config: Config, memory: MemoryService, log: Logger, env: NodeJS.ProcessEnv): Promise<DreamService> {
    let review: ModelReview | undefined;
    if (config.memory.extractor !== 'heuristic' && config.dream.tokenBudget > 0) {
      // Loaded only when used: the model SDK costs a daemon without a model ~0.1–0.3 s of start-up.
      const [{ createAnthropic, modelConfigFromEnv }, { createModelReview }] = await Promise.all([import('../llm/client.js'), import('./model-review.js')]);
      const cfg = modelConfigFromEnv(env, { model: config.memory.model });
      if (cfg) review = createModelReview({ client: createAnthropic(cfg, log), model: cfg.model, budget: config.dream.tokenBudget, log });
    }
    const service = new DreamService(paths, config, memory, log, review);
    service.scheduler = await startDreamSchedule({
      config: config.dream,
      memory,
      reports: service.reports,
      isRunning: () => service.running !== null,
      run: () => service.run({ dryRun: false, trigger: 'schedule' }),
      log,
    });
    return service;
  }

  get isRunning(): boolean {
    return this.running !== null;
  }

  schedule() {
    return this.scheduler?.status() ?? null;
  }

  /** Runs a dream now; a second request while one runs is refused (the lock would refuse it too). */
  run(opts: { dryRun: boolean; trigger: DreamReport['trigger'] }, onPhase?: (phase: string, detail: string) => void): Promise<DreamReport> {
    if (this.running) throw new AppError('conflict', 'a dream is already running; see `nightshift status`');
    const job = dream(
      { memory: this.memory, reports: this.reports, lockFile: this.paths.dreamLock, cap: this.config.dream.cap, log: this.log, review: this.review, ...(onPhase && { onPhase }) },
      opts,
    );
    this.running = job;
    const clear = () => {
      this.running = null;
    };
    job.then(clear, clear);
    return job;
  }

  stop(): void {
    this.scheduler?.stop();
  }
}
