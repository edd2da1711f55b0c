/** The daemon's dream: one at a time, on demand or on schedule, with a model when there is one. */
import type { DreamReport, RunningDream } from '../api/dream.js';
import { now } from '../clock.js';
import type { Config } from '../config.js';
import { AppError } from '../errors.js';
import type { Logger } from '../log.js';
import type { MemoryService } from '../memory/index.js';
import type { Paths } from '../paths.js';
import type { UsageLedger } from '../llm/usage-ledger.js';
import type { ModelReview } from './model-review.js';
import { openReviewer, type ReviewerInfo } from './reviewer.js';
import { DreamReports, newDreamId } from './reports.js';
import { dream } from './run.js';
import { startDreamSchedule, type Scheduler } from './schedule.js';

type PhaseListener = (phase: string, detail: string) => void;

/** The dream running now: what it has done so far, who follows it, how it ends. */
interface Current {
  info: RunningDream;
  job: Promise<DreamReport>;
  listeners: Set<PhaseListener>;
}

export class DreamService {
  readonly reports: DreamReports;
  private current: Current | null = null;
  /** Who reviews pairs that read alike, and why (`doctor`). */
  reviewer: ReviewerInfo = { active: 'heuristic', why: '' };
  private scheduler: Scheduler | null = null;

  private constructor(
    private readonly paths: Paths,
    private config: Config,
    private readonly memory: MemoryService,
    private readonly log: Logger,
    private readonly review: ModelReview | undefined,
  ) {
    this.reports = new DreamReports(paths.dreamsDir);
  }

  static async open(paths: Paths, config: Config, memory: MemoryService, log: Logger, env: NodeJS.ProcessEnv, ledger?: UsageLedger): Promise<DreamService> {
    const { review, reviewer } = await openReviewer(config, env, log, ledger);
    const service = new DreamService(paths, config, memory, log, review);
    service.reviewer = reviewer;
    service.scheduler = await service.startSchedule(config);
    return service;
  }

  private startSchedule(config: Config): Promise<Scheduler> {
    return startDreamSchedule({
      config: config.dream,
      memory: this.memory,
      reports: this.reports,
      isRunning: () => this.current !== null,
      run: () => this.run({ dryRun: false, trigger: 'schedule' }).job,
      log: this.log,
    });
  }

  /**
   * A reloaded config: the schedule, its gates and the cap apply from now on (the new schedule is
   * checked first: an invalid one changes nothing). The model review keeps the budget it started with.
   */
  async reconfigure(config: Config): Promise<void> {
    const next = await this.startSchedule(config);
    this.scheduler?.stop();
    this.scheduler = next;
    this.config = config;
  }

  get isRunning(): boolean {
    return this.current !== null;
  }

  /** The dream running now, if any. */
  get running(): RunningDream | null {
    return this.current ? { ...this.current.info, phases: [...this.current.info.phases] } : null;
  }

  schedule() {
    return this.scheduler?.status() ?? null;
  }

  /**
   * Starts a dream; a second request while one runs is refused (the lock would refuse it too). It
   * runs to its end whoever listens: clients follow it (`follow`) and may come and go.
   */
  run(opts: { dryRun: boolean; trigger: DreamReport['trigger'] }): { id: string; job: Promise<DreamReport> } {
    if (this.current) {
      const { id, startedAt } = this.current.info;
      throw new AppError('conflict', `a dream is already running (${id}, since ${startedAt}); \`nightshift dream show ${id}\` follows it`);
    }
    const started = now();
    const info: RunningDream = { id: newDreamId(started), trigger: opts.trigger, dryRun: opts.dryRun, startedAt: started.toISOString(), phases: [] };
    const listeners = new Set<PhaseListener>();
    const onPhase = (phase: string, detail: string) => {
      info.phases.push({ phase, detail });
      for (const l of listeners) {
        try {
          l(phase, detail);
        } catch (err) {
          // A follower's failure is its own: the dream goes on.
          this.log.warn({ dream: info.id, err: (err as Error).message }, 'a dream follower failed');
        }
      }
    };
    const job = dream(
      { memory: this.memory, reports: this.reports, lockFile: this.paths.dreamLock, cap: this.config.dream.cap, log: this.log, review: this.review, onPhase },
      { ...opts, id: info.id, started },
    );
    this.current = { info, job, listeners };
    const clear = () => {
      this.current = null;
    };
    job.then(clear, (err: unknown) => {
      clear();
      this.log.warn({ dream: info.id, err: (err as Error).message }, 'dream failed');
    });
    return { id: info.id, job };
  }

  /**
   * Follows a dream: the phases it has done so far and those to come go to `onPhase` until `stop`;
   * `job` gives its report. A dream that has ended answers from its saved report.
   */
  follow(id: string, onPhase: PhaseListener): { job: Promise<DreamReport>; stop: () => void } {
    const cur = this.current;
    if (cur?.info.id === id) {
      for (const p of cur.info.phases) onPhase(p.phase, p.detail);
      cur.listeners.add(onPhase);
      return { job: cur.job, stop: () => cur.listeners.delete(onPhase) };
    }
    return { job: Promise.resolve(this.report(id)), stop: () => undefined };
  }

  /** A dream's report; a dream still running has none yet. */
  report(id: string): DreamReport {
    if (this.current?.info.id === id) {
      throw new AppError(
        'conflict',
        `dream ${id} is still running (${this.current.info.phases.at(-1)?.phase ?? 'starting'}); \`nightshift dream show ${id}\` follows it to its end`,
      );
    }
    return this.reports.get(id);
  }

  stop(): void {
    this.scheduler?.stop();
  }
}
