/**
 * Compaction's state and its decisions: at most once per iteration, past the threshold or when asked,
 * only at a turn boundary; failures counted by the circuit breaker; the count and the last summary
 * (the checkpoint holds both) and ratio; the memory extractions the compactions started. It owns that
 * and answers with values (a trigger, an outcome); the manager measures, reports and checkpoints.
 * The compaction itself is compaction-run.ts.
 */
import type { MessageParam } from '@anthropic-ai/sdk/resources/messages';
import { CircuitBreaker } from './breaker.js';
import type { StructuredSummary } from './compaction-summary.js';
import { runCompaction, type CompactionDone } from './compaction-run.js';
import type { CompactionConfig } from './config.js';
import type { History } from './history.js';
import type { CompactionTrigger, ContextError, ContextEventInput, Summarizer } from './types.js';
import type { WindowSpec } from './model-window.js';

/** What a compaction is set up with, once, by the manager. */
export interface CompactionSetup {
  config: CompactionConfig;
  window: WindowSpec;
  /** The input budget (window − max output tokens). */
  budget: number;
  summarize: Summarizer;
  extractMemories?: (messages: MessageParam[]) => void | Promise<void>;
  /** Where an extraction's failure is reported: it ends after the compaction that started it. */
  onExtractError: (message: string) => void;
  /** A resumed task's: the count goes on, the summary is its checkpoint's. */
  restored?: { count: number; summary: StructuredSummary | undefined };
}

/** What one compaction works on: the history it rewrites, and what the summary message carries. */
export interface CompactionJob {
  history: History;
  iteration: number;
  /** Model tokens per chars/4 token: the summary request is sized with it. */
  ratio: number;
  task: string | undefined;
  notes: string;
}

/** 'refused': not tried, as compaction is disabled or the breaker is open (a manual one is always tried). */
export type CompactionOutcome =
  { kind: 'refused'; error: ContextError } | { kind: 'failed'; error: ContextError; breakerOpened: boolean } | { kind: 'done'; done: CompactionDone };

export class Compactions {
  readonly breaker: CircuitBreaker;
  private done: number;
  private summary: StructuredSummary | undefined;
  /** Request tokens before / after the last compaction. */
  private ratio: number | null = null;
  private doneIn = -1;
  private requested = false;
  private readonly inflight = new Set<Promise<void>>();

  constructor(private readonly s: CompactionSetup) {
    this.breaker = new CircuitBreaker(s.config.maxFailures);
    this.done = s.restored?.count ?? 0;
    this.summary = s.restored?.summary;
  }

  /** Compactions done, over the task's life (a resumed task goes on counting). */
  get count(): number {
    return this.done;
  }

  get lastSummary(): StructuredSummary | undefined {
    return this.summary;
  }

  get lastRatio(): number | null {
    return this.ratio;
  }

  /** Compact before the next request (`nightshift compact ID`); the circuit breaker does not stop it. */
  request(): void {
    this.requested = true;
  }

  get available(): boolean {
    return this.s.config.enabled && !this.breaker.open;
  }

  /**
   * Past the threshold (or when asked), once per iteration, and only at a turn boundary: the history
   * ends with the user's turn (a message, or the complete results of the last tool calls, which the
   * repair guarantees), never inside a tool exchange or after an assistant prefill.
   */
  due(tokens: number, iteration: number, atTurnBoundary: boolean): CompactionTrigger | undefined {
    const due = this.requested || tokens >= this.s.config.threshold * this.s.budget;
    if (!due || !atTurnBoundary || this.doneIn === iteration) return undefined;
    return this.requested ? 'manual' : 'proactive';
  }

  async run(trigger: CompactionTrigger, job: CompactionJob): Promise<CompactionOutcome> {
    if (trigger === 'manual') this.requested = false;
    else if (!this.available) {
      return this.breaker.open
        ? { kind: 'refused', error: { code: 'breaker_open', message: `compaction is off after ${this.breaker.consecutiveFailures} consecutive failures` } }
        : { kind: 'refused', error: { code: 'compaction_failed', message: 'compaction is disabled' } };
    }
    this.doneIn = job.iteration;
    const { config, window, summarize, extractMemories, onExtractError } = this.s;
    const r = await runCompaction({
      history: job.history,
      cfg: config,
      inputBudget: this.s.budget,
      contextWindow: window.contextWindow,
      maxOutputTokens: window.maxOutputTokens,
      ratio: job.ratio,
      summarize,
      ...(extractMemories ? { extractMemories } : {}),
      inflight: this.inflight,
      onExtractError,
      task: job.task,
      notes: job.notes,
      ordinal: this.done + 1,
    });
    if (!r.ok) return { kind: 'failed', error: r.error, breakerOpened: r.error.code !== 'nothing_to_compact' && this.breaker.recordFailure() };
    this.breaker.recordSuccess();
    this.done++;
    this.summary = r.value.summary;
    return { kind: 'done', done: r.value };
  }

  /**
   * What an outcome is worth reporting, given the request's tokens before the compaction and after
   * it (the account rebased on the new history): the breaker opening, then the compaction itself.
   * A success's before/after ratio is kept for health().
   */
  report(trigger: CompactionTrigger, o: CompactionOutcome, before: number, after: number): ContextEventInput[] {
    if (o.kind === 'refused') return [];
    if (o.kind === 'failed') {
      const opened: ContextEventInput[] = o.breakerOpened ? [{ type: 'breaker_open', failures: this.breaker.consecutiveFailures }] : [];
      return [...opened, { type: 'compaction', trigger, ok: false, beforeTokens: before, error: o.error }];
    }
    this.ratio = after > 0 ? before / after : null;
    const d = o.done;
    const usage = d.usage ? { summaryUsage: d.usage } : {};
    return [
      {
        type: 'compaction',
        trigger,
        ok: true,
        beforeTokens: before,
        afterTokens: after,
        keptMessages: d.keptMessages,
        summaryTokens: d.summaryTokens,
        ...usage,
      },
    ];
  }

  /** Waits for the memory extractions still running (call before the task ends). */
  async settle(): Promise<void> {
    while (this.inflight.size > 0) await Promise.allSettled([...this.inflight]);
  }
}
