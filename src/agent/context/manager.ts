/**
 * ContextManager: the one object an agent loop talks to. It holds the history, applies tier 3 as
 * tool results arrive, and before each request repairs the invariants, runs the cheap tiers (budget,
 * snip, microcompact, prune: each at most once per iteration), compacts at a turn boundary past the
 * threshold, counts exactly near the limit and, last, evicts by policy, so that the request it
 * returns satisfies estimate + max_tokens ≤ context window, or it returns an error value.
 */
import type { ContentBlock, ContentBlockParam, MessageParam, ToolResultBlockParam, ToolUnion } from '@anthropic-ai/sdk/resources/messages';
import type { CheckpointOutcome, ContextManagerOptions, OverflowDecision, PrepareInput, PreparedRequest, ToolResultInput } from './options.js';
import { toolCalls } from './blocks.js';
import { buildCheckpoint, saveCheckpointReporting, type Checkpoint } from './checkpoint.js';
import { Compactions, type Measure } from './compactions.js';
import { limitCrossings, limitTokens, measureComponents, memoryBlock, withBlock, type ComponentStatus, type ComponentUsage } from './components.js';
import { resolveConfig, type ContextConfig } from './config.js';
import { messageTokens, messagesTokens, roughRequestTokens, TokenAccount } from './estimate.js';
import { evictFor, squeezeCurrentTurn } from './fit.js';
import { healthReport, HealthStats, type HealthReport } from './health.js';
import { History, toParam } from './history.js';
import { describeViolation } from './invariants.js';
import { NotesStore } from './notes.js';
import { overflowOf } from './overflow.js';
import { persistResult } from './persist.js';
import { typeAgePolicy, type EvictionPolicy } from './policy.js';
import { restoreEntries } from './resume.js';
import { runTier, TIERS } from './tiers.js';
import {
  fail,
  ok,
  type Clock,
  type ComponentName,
  type ContextEvent,
  type ContextEventInput,
  type Result,
  type SystemPrompt,
  type TierName,
  type TierReport,
  type UsageLike,
  type Zone,
} from './types.js';
import { checkWindow, inputBudget, type WindowSpec } from './window.js';
import { PressureMonitor, zoneOf } from './zones.js';

type Pass = { m: Measure; exact: boolean; compacted: boolean; reports: TierReport[] }; // one prepareRequest's running state
const textOf = (c: string | ContentBlockParam[]): string => (typeof c === 'string' ? c : c.map((b) => (b.type === 'text' ? b.text : '')).join('\n'));

export class ContextManager {
  readonly config: ContextConfig;
  readonly window: WindowSpec;
  readonly notes: NotesStore;
  private readonly budget: number;
  private readonly policy: EvictionPolicy;
  private readonly clock: Clock;
  private readonly history = new History();
  private readonly account = new TokenAccount();
  private readonly pressure: PressureMonitor;
  private readonly stats = new HealthStats();
  private readonly inflight = new Set<Promise<void>>();
  private readonly componentStatus = new Map<ComponentName, ComponentStatus>();
  private readonly tiersRun = new Set<TierName>();
  private input: { system?: SystemPrompt; tools?: ToolUnion[]; given?: SystemPrompt } = {};
  private task: string | undefined;
  private memories: string | undefined;
  private iteration = 0;
  private retrying = false;
  private reactiveIn = -1;
  private lastResponseAt: number | undefined;
  private resumed = false;
  private last: { tokens: number; exact: boolean; zone: Zone } | undefined;
  private readonly compactions: Compactions;
  private version = 0;
  private toolSeq = 0;

  constructor(private readonly opts: ContextManagerOptions) {
    const bad = checkWindow(opts.window);
    if (bad) throw new RangeError(`context window: ${bad}`);
    this.window = { contextWindow: opts.window.contextWindow, maxOutputTokens: opts.window.maxOutputTokens };
    this.budget = inputBudget(this.window);
    this.config = resolveConfig(opts.tiers);
    this.policy = opts.policy ?? typeAgePolicy;
    this.clock = opts.clock ?? Date.now;
    this.pressure = new PressureMonitor(this.config.velocityTurns);
    this.notes = new NotesStore(opts.notes);
    this.task = opts.task;
    this.memories = opts.memories;
    this.compactions = new Compactions({
      history: this.history,
      config: this.config,
      window: this.window,
      budget: this.budget,
      account: this.account,
      stats: this.stats,
      inflight: this.inflight,
      opts,
      iteration: () => this.iteration,
      task: () => this.task,
      notes: () => this.notes.render(),
      measure: () => this.measure(),
      emit: (e) => this.emit(e),
      checkpoint: () => this.checkpoint(),
    });
  }

  /**
   * A manager continuing a stopped or lost task: the checkpoint (or none, if the task never saved
   * one) and the transcript, i.e. every message given to addUser / addAssistant / addToolResults.
   */
  static resume(checkpoint: Checkpoint | undefined, transcript: readonly MessageParam[], opts: ContextManagerOptions): Result<ContextManager> {
    const r = restoreEntries(checkpoint, transcript);
    if (!r.ok) return r;
    const first = transcript[0]?.role === 'user' ? textOf(transcript[0].content) : undefined;
    const task = opts.task ?? (checkpoint?.goal || first);
    const m = new ContextManager({ ...opts, ...(task !== undefined ? { task } : {}), ...(checkpoint ? { notes: checkpoint.notes } : {}) });
    m.history.load(r.value.entries, transcript.length);
    m.compactions.lastSummary = r.value.summary;
    m.version = checkpoint?.version ?? 0;
    m.compactions.count = checkpoint?.compactions ?? 0;
    m.resumed = true; // the prompt cache is long cold: microcompact applies at once
    m.stats.addedTokens = messagesTokens(transcript);
    m.toolSeq = transcript.length;
    m.repair();
    m.emit({ type: 'resumed', version: m.version, messages: m.history.length });
    return ok(m);
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
    this.lastResponseAt = this.clock();
  }

  /** The last turn's tool results, after tier 3 (large outputs saved or cut). Returns what was stored. */
  async addToolResults(results: readonly ToolResultInput[]): Promise<ToolResultBlockParam[]> {
    const calls = toolCalls(this.history.messages().slice(-1));
    const stored: ToolResultBlockParam[] = [];
    for (const r of results) {
      const block: ToolResultBlockParam = { ...structuredClone(r), type: 'tool_result' };
      this.stats.addedTokens += messageTokens({ role: 'user', content: [block] });
      const target = { taskDir: this.opts.taskDir, toolName: calls.get(r.tool_use_id)?.name ?? 'tool', toolUseId: r.tool_use_id, seq: ++this.toolSeq };
      const out = await persistResult(block, target, this.config.persist);
      if (out.kind === 'saved') this.emit({ type: 'persisted', toolUseId: r.tool_use_id, path: out.path, bytes: out.bytes });
      if (out.kind === 'truncated') this.emit({ type: 'truncated', toolUseId: r.tool_use_id, chars: out.chars, reason: out.reason });
      stored.push(block);
    }
    this.history.add({ role: 'user', content: stored });
    return structuredClone(stored);
  }

  setMemories(text: string | undefined): void {
    this.memories = text;
  }

  /** Compact before the next request (`nightshift compact ID`); the circuit breaker does not stop it. */
  requestCompaction(): void {
    this.compactions.request();
  }

  private measure(): Measure {
    const rough = roughRequestTokens({ system: this.input.system, tools: this.input.tools, messages: this.history.messages() });
    return { rough, tokens: this.account.estimate(rough) };
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
      this.tiersRun.clear();
    }
    const memories = this.memories && memoryBlock(this.memories, limitTokens(this.config.components.memories, this.window.contextWindow).hard);
    this.input = {
      system: withBlock(input.system, memories),
      ...(input.tools ? { tools: input.tools } : {}),
      ...(input.system !== undefined ? { given: input.system } : {}),
    };
    this.repair();
    const p: Pass = { m: this.measure(), exact: false, compacted: false, reports: [] };
    if (!retry && this.last) this.pressure.record(p.m.tokens - this.last.tokens);
    this.cheapTiers(p);
    await this.countNearLimit(p);
    if (await this.compactions.ifDue(p.m.tokens)) [p.m, p.exact, p.compacted] = [this.measure(), false, true];
    this.fit(p);
    this.stats.recordTurn(p.reports, !retry);
    if (p.m.tokens > this.budget) {
      await this.checkpoint();
      const w = this.window;
      return fail(
        'context_full',
        `the request needs ~${p.m.tokens} input tokens but ${this.budget} fit (window ${w.contextWindow} − max_tokens ${w.maxOutputTokens}) with everything evictable cleared`,
      );
    }
    return ok(this.finish(p));
  }

  private note(p: Pass, r: TierReport): void {
    if (r.blocks === 0) return;
    p.reports.push(r);
    this.emit({ type: 'tier', tier: r.tier, blocks: r.blocks, freedTokens: r.freedTokens, iteration: this.iteration });
    [p.m, p.exact] = [this.measure(), false];
  }

  /** Budget, snip, microcompact, prune: each at most once per iteration. */
  private cheapTiers(p: Pass): void {
    const idleMs = this.lastResponseAt === undefined ? (this.resumed ? Infinity : 0) : this.clock() - this.lastResponseAt;
    for (const tier of TIERS) {
      if (this.tiersRun.has(tier)) continue;
      this.tiersRun.add(tier);
      this.note(p, runTier(tier, this.history.messages(), this.config, p.m.tokens / this.budget, idleMs));
    }
  }

  /**
   * Near the limit that matters (the compaction threshold, or the budget when compaction is
   * unavailable) the estimate's error could decide wrongly: ask for the exact figure.
   */
  private async countNearLimit(p: Pass): Promise<void> {
    const count = this.opts.countTokens;
    const limit = (this.compactions.available ? this.config.compaction.threshold : 1) * this.budget;
    if (!count || p.m.tokens < (1 - this.config.exactCountWithin) * limit) return;
    const i = this.input;
    let n: number;
    try {
      n = await count({ ...(i.system !== undefined ? { system: i.system } : {}), ...(i.tools ? { tools: i.tools } : {}), messages: this.history.messages() });
    } catch {
      return; // the estimate stands: counting refines it, nothing depends on it
    }
    this.account.onExact(n, p.m.rough);
    this.emit({ type: 'exact_count', estimate: p.m.tokens, exact: n });
    [p.m, p.exact] = [{ rough: p.m.rough, tokens: n }, true];
  }

  /** The guarantee: evict by policy (tool results past their hard limit, or the request over the budget), then squeeze the current turn. */
  private fit(p: Pass): void {
    const tr = this.components().toolResults;
    const need = {
      overall: p.m.tokens > this.budget ? p.m.tokens - Math.floor(this.config.evict.target * this.budget) : 0,
      toolResults: this.config.evict.enforceToolResults && tr.status === 'hard' ? tr.tokens - tr.soft : 0,
    };
    if ((need.overall > 0 || need.toolResults > 0) && !this.tiersRun.has('evict')) {
      this.tiersRun.add('evict');
      this.note(p, evictFor(this.history.messages(), this.history.pinnedIndices(), this.policy, need));
    }
    if (p.m.tokens > this.budget) this.note(p, squeezeCurrentTurn(this.history.messages(), p.m.tokens - this.budget));
  }

  private finish({ m, exact, compacted, reports }: Pass): PreparedRequest {
    const utilisation = m.tokens / this.budget;
    const zone = zoneOf(utilisation, this.config.zones);
    const previous = this.last?.zone ?? 'green';
    if (zone !== previous) this.emit({ type: 'zone_change', from: previous, to: zone, tokens: m.tokens });
    const pctOfWindow = m.tokens / this.window.contextWindow;
    const turnsUntilRed = this.pressure.turnsUntil(m.tokens, this.config.zones.red * this.budget);
    this.emit({
      type: 'iteration',
      iteration: this.iteration,
      tokens: m.tokens,
      exact,
      pctOfWindow,
      utilisation,
      zone,
      velocity: this.pressure.velocity,
      turnsUntilRed,
    });
    for (const e of limitCrossings(this.components(), this.componentStatus)) this.emit(e);
    this.account.sent(m.rough);
    this.last = { tokens: m.tokens, exact, zone };
    const messages = structuredClone(this.history.messages());
    const out: PreparedRequest = {
      messages,
      maxTokens: this.window.maxOutputTokens,
      tokens: m.tokens,
      exact,
      utilisation,
      pctOfWindow,
      zone,
      iteration: this.iteration,
      compacted,
      tiers: reports,
    };
    if (this.input.system !== undefined) out.system = this.input.system;
    if (this.input.tools) out.tools = this.input.tools;
    return out;
  }

  private components(): Record<ComponentName, ComponentUsage> {
    const i = this.input;
    return measureComponents(
      { system: i.given, tools: i.tools, memories: this.memories, messages: this.history.messages(), maxOutputTokens: this.window.maxOutputTokens },
      this.window.contextWindow,
      this.config.components,
    );
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
    const before = this.measure().tokens;
    const compacted = (await this.compactions.run('reactive')).ok; // refused at once while the breaker is open
    // A summary can outweigh the small head it replaced: unless the request clearly shrank, evict too,
    // down to the evict target; at least a quarter of the budget, as the estimate was wrong.
    if (!compacted || this.measure().tokens > before * 0.9) {
      const target = Math.max(this.measure().tokens - Math.floor(this.config.evict.target * this.budget), Math.floor(this.budget / 4));
      const r = evictFor(this.history.messages(), this.history.pinnedIndices(), this.policy, { overall: target, toolResults: 0 });
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
      tokens: this.last?.tokens ?? this.measure().tokens,
      exact: this.last?.exact ?? false,
      window: this.window,
      zones: this.config.zones,
      pressure: this.pressure,
      stats: this.stats,
      breaker: this.compactions.breaker,
      components: this.components(),
      compactions: this.compactions.count,
      checkpointVersion: this.version,
    });
  }

  /** Waits for memory extractions still running (call before the task ends). */
  async settle(): Promise<void> {
    while (this.inflight.size > 0) await Promise.allSettled([...this.inflight]);
  }
}
