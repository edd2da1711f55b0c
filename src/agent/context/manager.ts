/**
 * ContextManager: the one object an agent loop talks to. It holds the history, applies tier 3 as
 * tool results arrive, and before each request repairs the invariants, runs the cheap tiers (budget,
 * snip, microcompact, prune: each at most once per iteration), compacts at a turn boundary past the
 * threshold, counts exactly near the limit and, last, evicts by policy, so that the request it
 * returns satisfies estimate + max_tokens ≤ context window, or it returns an error value.
 */
import type { ContentBlock, ContentBlockParam, MessageParam, ToolResultBlockParam } from '@anthropic-ai/sdk/resources/messages';
import type { CheckpointOutcome, ContextManagerOptions, OverflowDecision, PrepareInput, PreparedRequest, ToolResultInput } from './options.js';
import { toolCalls } from './blocks.js';
import { buildCheckpoint, saveCheckpointReporting, type Checkpoint } from './checkpoint.js';
import { Compactions } from './compaction-state.js';
import { resolveConfig, type ContextConfig } from './config.js';
import { messageTokens, TokenAccount } from './token-count.js';
import { evictFor, evictionAfterOverflow, squeezeCurrentTurn } from './fit.js';
import { Gauge } from './request-reading.js';
import { healthReport, HealthStats, type HealthReport } from './health-report.js';
import { History, textOf, toParam } from './history.js';
import { describeViolation } from './invariants.js';
import { RequestMeter, type Measure } from './request-size.js';
import { NotesStore } from './notes.js';
import { overflowOf } from './overflow.js';
import { ResultStore } from './persist.js';
import { typeAgePolicy, type EvictionPolicy } from './policy.js';
import { resumedOptions, resumePoint, type ResumePoint } from './resume.js';
import { TierSchedule } from './tiers.js';
import { fail, ok, type CompactionTrigger, type ContextEvent, type ContextEventInput, type Result, type TierReport, type UsageLike } from './types.js';
import { checkWindow, inputBudget, type WindowSpec } from './model-window.js';

type Pass = { m: Measure; exact: boolean; compacted: boolean; reports: TierReport[] }; // one prepareRequest's running state

export class ContextManager {
  readonly config: ContextConfig;
  readonly window: WindowSpec;
  readonly notes: NotesStore;
  private readonly budget: number;
  private readonly policy: EvictionPolicy;
  private readonly clock: () => number;
  private readonly history = new History();
  private readonly account = new TokenAccount();
  private readonly gauge: Gauge;
  private readonly stats = new HealthStats();
  private readonly tiers: TierSchedule;
  private readonly meter: RequestMeter;
  private task: string | undefined;
  private iteration = 0;
  private retrying = false;
  private reactiveIn = -1;
  private readonly compactions: Compactions;
  private version: number;
  private readonly results: ResultStore;

  /** `from`: where a resumed task starts (ContextManager.resume). */
  constructor(
    private readonly opts: ContextManagerOptions,
    from?: ResumePoint,
  ) {
    const bad = checkWindow(opts.window);
    if (bad) throw new RangeError(`context window: ${bad}`);
    this.window = { contextWindow: opts.window.contextWindow, maxOutputTokens: opts.window.maxOutputTokens };
    this.budget = inputBudget(this.window);
    this.config = resolveConfig(opts.tiers);
    this.policy = opts.policy ?? typeAgePolicy;
    this.clock = opts.clock ?? Date.now;
    this.gauge = new Gauge(this.config.zones, this.config.velocityTurns, this.window, this.budget);
    this.notes = new NotesStore(opts.notes);
    this.task = opts.task;
    this.meter = new RequestMeter(this.history, this.account, this.config, this.window, opts.memories);
    const { summarize, extractMemories } = opts;
    const { window, budget, config } = this;
    const onExtractError = (message: string): void => this.emit({ type: 'memory_extraction_failed', message });
    const restored = from && { count: from.compactions, summary: from.summary };
    this.compactions = new Compactions({ config: config.compaction, window, budget, summarize, extractMemories, onExtractError, restored });
    this.version = from?.version ?? 0;
    this.results = new ResultStore(opts.taskDir, this.config.persist, from?.messageCount ?? 0);
    this.tiers = new TierSchedule(this.clock, from !== undefined);
    if (!from) return;
    this.history.load(from.entries, from.messageCount);
    this.stats.addedTokens = from.addedTokens;
    this.repair();
    this.emit({ type: 'resumed', version: this.version, messages: this.history.length });
  }

  /**
   * A manager continuing a stopped or lost task: the checkpoint (or none, if the task never saved
   * one) and the transcript, i.e. every message given to addUser / addAssistant / addToolResults.
   */
  static resume(checkpoint: Checkpoint | undefined, transcript: readonly MessageParam[], opts: ContextManagerOptions): Result<ContextManager> {
    const r = resumePoint(checkpoint, transcript);
    return r.ok ? ok(new ContextManager(resumedOptions(checkpoint, transcript, opts), r.value)) : r;
  }

  private emit(e: ContextEventInput): void {
    this.opts.onEvent?.({ at: new Date(this.clock()).toISOString(), ...e } as ContextEvent);
  }

  /** The stored history (the manager's own objects: read them, do not change them). */
  get messages(): readonly MessageParam[] {
    return this.history.messages();
  }

  /** Messages given so far: the length the loop's transcript should have. */
  get messageCount(): number {
    return this.history.messageCount;
  }

  addUser(content: string | ContentBlockParam[]): void {
    const first = this.history.messageCount === 0 && !this.history.hasSummary();
    if (this.task === undefined) this.task = textOf(content);
    const e = this.history.add({ role: 'user', content: structuredClone(content) }, first ? 'task' : undefined);
    this.stats.addedTokens += messageTokens(e.message);
  }

  /** The response's content (response or param blocks) and its usage, the new anchor. */
  addAssistant(content: ReadonlyArray<ContentBlock | ContentBlockParam>, usage?: UsageLike): void {
    const e = this.history.add({ role: 'assistant', content: content.map(toParam) });
    this.stats.addedTokens += messageTokens(e.message);
    if (usage) this.account.onUsage(usage);
    this.tiers.responded();
  }

  /** The last turn's tool results, after tier 3 (large outputs saved or cut). Returns what was stored. */
  async addToolResults(results: readonly ToolResultInput[]): Promise<ToolResultBlockParam[]> {
    const calls = toolCalls(this.history.messages().slice(-1));
    const stored: ToolResultBlockParam[] = [];
    for (const r of results) {
      const block: ToolResultBlockParam = { ...structuredClone(r), type: 'tool_result' };
      this.stats.addedTokens += messageTokens({ role: 'user', content: [block] });
      const event = await this.results.store(block, calls.get(r.tool_use_id)?.name ?? 'tool');
      if (event) this.emit(event);
      stored.push(block);
    }
    this.history.add({ role: 'user', content: stored });
    return structuredClone(stored);
  }

  setMemories(text: string | undefined): void {
    this.meter.setMemories(text);
  }

  /** Compact before the next request (`nightshift compact ID`); the circuit breaker does not stop it. */
  requestCompaction(): void {
    this.compactions.request();
  }

  private repair(): void {
    const repairs = this.history.repair();
    if (repairs.length) this.emit({ type: 'invariants_repaired', repairs: repairs.map(describeViolation) });
  }

  /**
   * The request to send next, or an error value when it cannot be made to fit (end the task: the
   * checkpoint is saved). Call it before every request, the retry after onOverflow included.
   */
  async prepareRequest(input: PrepareInput = {}): Promise<Result<PreparedRequest>> {
    const retry = this.retrying;
    this.retrying = false;
    if (!retry) {
      this.iteration++;
      this.tiers.newIteration();
    }
    this.meter.set(input);
    this.repair();
    const p: Pass = { m: this.meter.measure(), exact: false, compacted: false, reports: [] };
    if (!retry) this.gauge.grew(p.m.tokens);
    for (const r of this.tiers.runCheap(this.history.messages(), this.config, p.m.tokens / this.budget)) this.note(p, r);
    await this.countNearLimit(p);
    const trigger = this.compactions.due(p.m.tokens, this.iteration, this.history.messages().at(-1)?.role === 'user');
    if (trigger && (await this.compact(trigger))) [p.m, p.exact, p.compacted] = [this.meter.measure(), false, true];
    this.fit(p);
    this.stats.recordTurn(p.reports, !retry);
    if (p.m.tokens > this.budget) {
      await this.checkpoint();
      const w = this.window;
      const fits = `${this.budget} fit (window ${w.contextWindow} − max_tokens ${w.maxOutputTokens})`;
      return fail('context_full', `the request needs ~${p.m.tokens} input tokens but ${fits} with everything evictable cleared`);
    }
    return ok(this.finish(p));
  }

  private note(p: Pass, r: TierReport): void {
    if (r.blocks === 0) return;
    p.reports.push(r);
    this.emit({ type: 'tier', tier: r.tier, blocks: r.blocks, freedTokens: r.freedTokens, iteration: this.iteration });
    [p.m, p.exact] = [this.meter.measure(), false];
  }

  /**
   * Near the limit that matters (the compaction threshold, or the budget when compaction is
   * unavailable) the estimate's error could decide wrongly: ask for the exact figure.
   */
  private async countNearLimit(p: Pass): Promise<void> {
    const count = this.opts.countTokens;
    const limit = (this.compactions.available ? this.config.compaction.threshold : 1) * this.budget;
    if (!count || p.m.tokens < (1 - this.config.exactCountWithin) * limit) return;
    const n = await this.meter.exact(count, p.m.rough);
    if (n === undefined) return;
    this.emit({ type: 'exact_count', estimate: p.m.tokens, exact: n });
    [p.m, p.exact] = [{ rough: p.m.rough, tokens: n }, true];
  }

  /** The guarantee: evict by policy (tool results past their hard limit, or the request over the budget), then squeeze the current turn. */
  private fit(p: Pass): void {
    const tr = this.meter.components().toolResults;
    const need = {
      overall: p.m.tokens > this.budget ? p.m.tokens - Math.floor(this.config.evict.target * this.budget) : 0,
      toolResults: this.config.evict.enforceToolResults && tr.status === 'hard' ? tr.tokens - tr.soft : 0,
    };
    if ((need.overall > 0 || need.toolResults > 0) && this.tiers.claim('evict')) {
      this.note(p, evictFor(this.history.messages(), this.history.pinnedIndices(), this.policy, need));
    }
    if (p.m.tokens > this.budget) this.note(p, squeezeCurrentTurn(this.history.messages(), p.m.tokens - this.budget));
  }

  private finish({ m, exact, compacted, reports }: Pass): PreparedRequest {
    const { reading, events } = this.gauge.read(m.tokens, exact, this.iteration, this.meter.components());
    for (const e of events) this.emit(e);
    this.account.sent(m.rough);
    const request = this.meter.request(structuredClone(this.history.messages()));
    return { ...request, maxTokens: this.window.maxOutputTokens, ...reading, iteration: this.iteration, compacted, tiers: reports };
  }

  /** One compaction, when the component allows it: measured, reported and checkpointed here. True: compacted. */
  private async compact(trigger: CompactionTrigger): Promise<boolean> {
    const before = this.meter.measure().tokens;
    const { account, notes, history, iteration, task } = this;
    const o = await this.compactions.run(trigger, { history, iteration, ratio: account.ratio, task, notes: notes.render() });
    if (o.kind === 'done') account.rebase(this.meter.measure().rough);
    for (const e of this.compactions.report(trigger, o, before, this.meter.measure().tokens)) this.emit(e);
    if (o.kind === 'done') await this.checkpoint();
    return o.kind === 'done';
  }

  /**
   * The request was refused for its size (or the response stopped on the window). The first time in
   * an iteration: one reactive compaction (eviction by policy if that fails) and 'retry'; the second
   * time: 'give_up' with the checkpoint saved. Never a loop. 'not_overflow': some other error.
   */
  async onOverflow(cause: unknown): Promise<OverflowDecision> {
    const o = overflowOf(cause);
    if (!o) return { action: 'not_overflow' };
    if (o.promptTokens) this.account.onExact(o.promptTokens.actual);
    const giveUp = async (message: string): Promise<OverflowDecision> => {
      this.emit({ type: 'overflow', code: o.code, message: o.message, action: 'give_up' });
      return { action: 'give_up', error: { code: 'overflow', message }, checkpoint: await this.checkpoint() };
    };
    if (this.reactiveIn === this.iteration) return giveUp(`the context overflowed again after a reactive compaction: ${o.message}`);
    this.reactiveIn = this.iteration;
    const before = this.meter.measure().tokens;
    const compacted = await this.compact('reactive'); // refused at once while the breaker is open
    const overall = evictionAfterOverflow(before, this.meter.measure().tokens, compacted, this.config.evict.target, this.budget);
    if (overall > 0) {
      const r = evictFor(this.history.messages(), this.history.pinnedIndices(), this.policy, { overall, toolResults: 0 });
      if (r.blocks === 0 && !compacted) return giveUp(`the context overflowed and neither compaction nor eviction could shrink it: ${o.message}`);
      this.stats.recordTurn([r], false);
      if (r.blocks > 0) this.emit({ type: 'tier', tier: 'evict', blocks: r.blocks, freedTokens: r.freedTokens, iteration: this.iteration });
    }
    this.retrying = true;
    this.emit({ type: 'overflow', code: o.code, message: o.message, action: 'retry' });
    return { action: 'retry', compacted };
  }

  /** Builds the checkpoint (next version) and saves it to the task directory when there is one. */
  async checkpoint(): Promise<CheckpointOutcome> {
    const c = buildCheckpoint({
      version: ++this.version,
      savedAt: new Date(this.clock()).toISOString(),
      ...(this.opts.taskId ? { taskId: this.opts.taskId } : {}),
      task: this.task,
      summary: this.compactions.lastSummary,
      notes: this.notes.snapshot,
      compactions: this.compactions.count,
      keptFrom: this.history.hasSummary() ? this.history.keptFrom() : 0,
      messageCount: this.history.messageCount,
    });
    return saveCheckpointReporting(this.opts.taskDir, c, (e) => this.emit(e));
  }

  /** Utilisation, zone, velocity, burn rate, evictions, compression, components (`nightshift show ID --json`). */
  health(): HealthReport {
    return healthReport({
      iteration: this.iteration,
      tokens: this.gauge.last?.tokens ?? this.meter.measure().tokens,
      exact: this.gauge.last?.exact ?? false,
      window: this.window,
      zones: this.config.zones,
      pressure: this.gauge.pressure,
      stats: this.stats,
      components: this.meter.components(),
      compactions: this.compactions,
      checkpointVersion: this.version,
    });
  }

  /** Waits for memory extractions still running (call before the task ends). */
  settle(): Promise<void> {
    return this.compactions.settle();
  }
}
