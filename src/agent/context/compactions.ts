/**
 * When the manager compacts, and what it keeps of it: at most once per iteration, past the threshold
 * or when asked, only at a turn boundary; failures counted by the circuit breaker; the count and the
 * last summary (the checkpoint holds both). The compaction itself is compactor.ts.
 */
import { CircuitBreaker } from './breaker.js';
import type { StructuredSummary } from './compact.js';
import { runCompaction } from './compactor.js';
import type { ContextConfig } from './config.js';
import type { TokenAccount } from './estimate.js';
import type { HealthStats } from './health.js';
import type { History } from './history.js';
import type { ContextManagerOptions } from './options.js';
import { fail, ok, type CompactionTrigger, type ContextEventInput, type Result } from './types.js';
import type { WindowSpec } from './window.js';

/** A request's size: the rough estimate and the tokens it stands for. */
export type Measure = { rough: number; tokens: number };

/** What compaction needs of the manager: its parts, and a view of its moving state. */
export interface CompactionHost {
  history: History;
  config: ContextConfig;
  window: WindowSpec;
  budget: number;
  account: TokenAccount;
  stats: HealthStats;
  inflight: Set<Promise<void>>;
  opts: ContextManagerOptions;
  iteration(): number;
  task(): string | undefined;
  notes(): string;
  measure(): Measure;
  emit(e: ContextEventInput): void;
  checkpoint(): Promise<unknown>;
}

export class Compactions {
  readonly breaker: CircuitBreaker;
  /** Compactions done, over the task's life (a resumed task goes on counting). */
  count = 0;
  lastSummary: StructuredSummary | undefined;
  private doneIn = -1;
  private requested = false;

  constructor(private readonly h: CompactionHost) {
    this.breaker = new CircuitBreaker(h.config.compaction.maxFailures);
  }

  /** Compact before the next request (`nightshift compact ID`); the circuit breaker does not stop it. */
  request(): void {
    this.requested = true;
  }

  get available(): boolean {
    return this.h.config.compaction.enabled && !this.breaker.open;
  }

  /**
   * Past the threshold (or when asked), once per iteration, and only at a turn boundary: the history
   * ends with the user's turn (a message, or the complete results of the last tool calls, which the
   * repair guarantees), never inside a tool exchange or after an assistant prefill. True: compacted.
   */
  async ifDue(tokens: number): Promise<boolean> {
    const manual = this.requested;
    const due = manual || tokens >= this.h.config.compaction.threshold * this.h.budget;
    const boundary = this.h.history.messages().at(-1)?.role === 'user';
    if (!due || !boundary || this.doneIn === this.h.iteration()) return false;
    this.requested = false;
    return (await this.run(manual ? 'manual' : 'proactive')).ok;
  }

  async run(trigger: CompactionTrigger): Promise<Result<void>> {
    const { h } = this;
    if (trigger !== 'manual' && !this.available) {
      return this.breaker.open
        ? fail('breaker_open', `compaction is off after ${this.breaker.consecutiveFailures} consecutive failures`)
        : fail('compaction_failed', 'compaction is disabled');
    }
    this.doneIn = h.iteration();
    const beforeTokens = h.measure().tokens;
    const r = await runCompaction({
      history: h.history,
      cfg: h.config.compaction,
      inputBudget: h.budget,
      contextWindow: h.window.contextWindow,
      maxOutputTokens: h.window.maxOutputTokens,
      ratio: h.account.ratio,
      summarize: h.opts.summarize,
      ...(h.opts.extractMemories ? { extractMemories: h.opts.extractMemories } : {}),
      inflight: h.inflight,
      onExtractError: (message) => h.emit({ type: 'memory_extraction_failed', message }),
      task: h.task(),
      notes: h.notes(),
      ordinal: this.count + 1,
    });
    if (!r.ok) {
      if (r.error.code !== 'nothing_to_compact' && this.breaker.recordFailure()) h.emit({ type: 'breaker_open', failures: this.breaker.consecutiveFailures });
      h.emit({ type: 'compaction', trigger, ok: false, beforeTokens, error: r.error });
      return r;
    }
    this.breaker.recordSuccess();
    this.count++;
    this.lastSummary = r.value.summary;
    h.account.rebase(h.measure().rough);
    const afterTokens = h.measure().tokens;
    h.stats.lastCompactionRatio = afterTokens > 0 ? beforeTokens / afterTokens : null;
    h.emit({
      type: 'compaction',
      trigger,
      ok: true,
      beforeTokens,
      afterTokens,
      keptMessages: r.value.keptMessages,
      summaryTokens: r.value.summaryTokens,
      ...(r.value.usage ? { summaryUsage: r.value.usage } : {}),
    });
    await h.checkpoint();
    return ok(undefined);
  }
}
