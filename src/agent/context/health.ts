/**
 * Health figures of a context over a task: evictions per turn, compression ratio, tool-result
 * share, next to the pressure figures. `ContextManager.health()` assembles them for
 * `nightshift show ID --json` and the task log.
 */
import type { ComponentUsage } from './components.js';
import type { ComponentName, TierName, Zone } from './types.js';

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
  lastCompactionRatio: number | null = null;

  constructor(private readonly window = 5) {}

  /** One iteration's tier work. */
  recordTurn(byTier: ReadonlyArray<{ tier: TierName; blocks: number }>): void {
    let n = 0;
    for (const r of byTier) {
      this.tiers[r.tier] += r.blocks;
      n += r.blocks;
    }
    this.perTurn.push(n);
    if (this.perTurn.length > this.window) this.perTurn.shift();
  }

  get evictionsPerTurn(): number {
    return this.perTurn.length ? this.perTurn.reduce((a, b) => a + b, 0) / this.perTurn.length : 0;
  }

  get evictionsTotal(): number {
    return Object.values(this.tiers).reduce((a, b) => a + b, 0);
  }
}
