/**
 * Health figures of a context over a task: evictions per turn, compression ratio, tool-result
 * share, next to the pressure figures. `ContextManager.health()` assembles them for
 * `nightshift show ID --json` and the task log.
 */
import type { CircuitBreaker } from './breaker.js';
import type { ComponentUsage } from './components.js';
import type { ComponentName, TierName, Zone } from './types.js';
import { inputBudget, type WindowSpec } from './model-window.js';
import { zoneOf, type PressureMonitor, type ZoneThresholds } from './pressure.js';

export interface HealthReport {
  iteration: number;
  /** Input tokens of the last prepared request (exact when counted by the API). */
  tokens: number;
  exact: boolean;
  contextWindow: number;
  maxOutputTokens: number;
  inputBudget: number;
  /** tokens / input budget: what zones and tiers use. */
  utilisation: number;
  pctOfWindow: number;
  zone: Zone;
  /** Tokens added per turn, rolling mean of the last 5 turns. */
  velocity: number;
  /** Tokens added per turn over the last 20 turns. */
  burnRate: number;
  turnsUntilRed: number | null;
  /** Blocks cleared or cut per turn, rolling mean of the last 5 turns. */
  evictionsPerTurn: number;
  evictionsTotal: number;
  /** Tokens the task has added to its history in all / tokens its history holds now. */
  compressionRatio: number;
  /** Tool results' share of the history tokens. */
  toolResultShare: number;
  components: Record<ComponentName, ComponentUsage>;
  compaction: { count: number; failures: number; consecutiveFailures: number; breakerOpen: boolean; lastRatio: number | null };
  /** Blocks changed by each tier over the task. */
  tiers: Record<TierName, number>;
  checkpointVersion: number;
}

/** Counters the manager feeds as it goes. */
export class HealthStats {
  readonly tiers: Record<TierName, number> = { budget: 0, snip: 0, microcompact: 0, prune: 0, evict: 0 };
  private readonly perTurn: number[] = [];
  /** chars/4 of every message as it was added (before persistence cut it). */
  addedTokens = 0;

  constructor(private readonly window = 5) {}

  /** One request's tier work; a retry within the same iteration adds to that iteration's figure. */
  recordTurn(byTier: ReadonlyArray<{ tier: TierName; blocks: number }>, newTurn: boolean): void {
    let n = 0;
    for (const r of byTier) {
      this.tiers[r.tier] += r.blocks;
      n += r.blocks;
    }
    if (!newTurn && this.perTurn.length > 0) this.perTurn[this.perTurn.length - 1] = (this.perTurn[this.perTurn.length - 1] ?? 0) + n;
    else this.perTurn.push(n);
    if (this.perTurn.length > this.window) this.perTurn.shift();
  }

  get evictionsPerTurn(): number {
    return this.perTurn.length ? this.perTurn.reduce((a, b) => a + b, 0) / this.perTurn.length : 0;
  }

  get evictionsTotal(): number {
    return Object.values(this.tiers).reduce((a, b) => a + b, 0);
  }
}

export interface HealthInput {
  iteration: number;
  tokens: number;
  exact: boolean;
  window: WindowSpec;
  zones: ZoneThresholds;
  pressure: PressureMonitor;
  stats: HealthStats;
  components: Record<ComponentName, ComponentUsage>;
  compactions: { count: number; breaker: CircuitBreaker; lastRatio: number | null };
  checkpointVersion: number;
}

export function healthReport(h: HealthInput): HealthReport {
  const budget = inputBudget(h.window);
  const utilisation = h.tokens / budget;
  const historyTokens = h.components.history.tokens + h.components.toolResults.tokens;
  return {
    iteration: h.iteration,
    tokens: h.tokens,
    exact: h.exact,
    contextWindow: h.window.contextWindow,
    maxOutputTokens: h.window.maxOutputTokens,
    inputBudget: budget,
    utilisation,
    pctOfWindow: h.tokens / h.window.contextWindow,
    zone: zoneOf(utilisation, h.zones),
    velocity: h.pressure.velocity,
    burnRate: h.pressure.burnRate,
    turnsUntilRed: h.pressure.turnsUntil(h.tokens, h.zones.red * budget),
    evictionsPerTurn: h.stats.evictionsPerTurn,
    evictionsTotal: h.stats.evictionsTotal,
    compressionRatio: historyTokens > 0 ? Math.max(1, h.stats.addedTokens / historyTokens) : 1,
    toolResultShare: historyTokens > 0 ? h.components.toolResults.tokens / historyTokens : 0,
    components: h.components,
    compaction: {
      count: h.compactions.count,
      failures: h.compactions.breaker.totalFailures,
      consecutiveFailures: h.compactions.breaker.consecutiveFailures,
      breakerOpen: h.compactions.breaker.open,
      lastRatio: h.compactions.lastRatio,
    },
    tiers: { ...h.stats.tiers },
    checkpointVersion: h.checkpointVersion,
  };
}
