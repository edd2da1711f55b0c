/**
 * Every tier's settings in one place, with the defaults the issue gives. A caller passes only what
 * it changes (`{ prune: { protectTokens: 30_000 }, snip: { enabled: false } }`); out-of-range
 * numbers are a programming error and throw here, once, at construction.
 */
import { DEFAULT_BUDGET, type BudgetConfig } from './budget.js';
import { DEFAULT_COMPONENT_LIMITS, type ComponentLimit, type ComponentLimits } from './components.js';
import { DEFAULT_MICROCOMPACT, type MicrocompactConfig } from './microcompact.js';
import { DEFAULT_PERSIST, type PersistConfig } from './persist.js';
import { DEFAULT_PRUNE, type PruneConfig } from './prune.js';
import { DEFAULT_SNIP, type SnipConfig } from './snip.js';
import type { ComponentName } from './types.js';
import { DEFAULT_ZONES, type ZoneThresholds } from './pressure.js';

export interface CompactionConfig {
  enabled: boolean;
  /** Compact at this utilisation of the input budget (at a turn boundary). */
  threshold: number;
  /** Newest turns kept verbatim: at most this fraction of the input budget. */
  keepFraction: number;
  /** Consecutive failures that open the circuit breaker. */
  maxFailures: number;
  /** max_tokens of the summary request (at most the window's max output). */
  summaryMaxTokens: number;
  /** Characters of each tool result the summariser sees (head and tail). */
  toolResultChars: number;
}

export interface EvictConfig {
  /** When a request does not fit, clear by policy down to this utilisation (headroom, not a hair under). */
  target: number;
  /**
   * Evict tool results (by policy) down to their soft limit when they pass their hard limit. Off by
   * default: components are tracked per component but enforced globally (the window guarantee and
   * compaction), or a small window would evict instead of ever compacting.
   */
  enforceToolResults: boolean;
}

export interface ContextConfig {
  zones: ZoneThresholds;
  /** Turns in the velocity average. */
  velocityTurns: number;
  /** Ask count_tokens when the estimate is within this fraction of the compaction threshold (of the input budget when compaction is off). */
  exactCountWithin: number;
  persist: PersistConfig;
  budget: BudgetConfig;
  snip: SnipConfig;
  microcompact: MicrocompactConfig;
  prune: PruneConfig;
  compaction: CompactionConfig;
  evict: EvictConfig;
  components: ComponentLimits;
}

export const DEFAULT_COMPACTION: CompactionConfig = {
  enabled: true,
  threshold: 0.85,
  keepFraction: 0.25,
  maxFailures: 3,
  summaryMaxTokens: 8192,
  toolResultChars: 2000,
};

export interface ContextConfigInput {
  zones?: Partial<ZoneThresholds>;
  velocityTurns?: number;
  exactCountWithin?: number;
  persist?: Partial<PersistConfig>;
  budget?: Partial<BudgetConfig>;
  snip?: Partial<SnipConfig>;
  microcompact?: Partial<MicrocompactConfig>;
  prune?: Partial<PruneConfig>;
  compaction?: Partial<CompactionConfig>;
  evict?: Partial<EvictConfig>;
  components?: Partial<Record<ComponentName, Partial<ComponentLimit>>>;
}

function fraction(name: string, v: number): void {
  if (!(v > 0 && v <= 1)) throw new RangeError(`context config: ${name} must be in (0, 1], got ${v}`);
}
function nonNegative(name: string, v: number): void {
  if (!(Number.isFinite(v) && v >= 0)) throw new RangeError(`context config: ${name} must be a number ≥ 0, got ${v}`);
}

export function resolveConfig(input: ContextConfigInput = {}): ContextConfig {
  const components = { ...DEFAULT_COMPONENT_LIMITS };
  for (const [name, limit] of Object.entries(input.components ?? {}) as Array<[ComponentName, Partial<ComponentLimit>]>) {
    components[name] = { ...DEFAULT_COMPONENT_LIMITS[name], ...limit };
  }
  const c: ContextConfig = {
    zones: { ...DEFAULT_ZONES, ...input.zones },
    velocityTurns: input.velocityTurns ?? 5,
    exactCountWithin: input.exactCountWithin ?? 0.1,
    persist: { ...DEFAULT_PERSIST, ...input.persist },
    budget: { ...DEFAULT_BUDGET, ...input.budget },
    snip: { ...DEFAULT_SNIP, ...input.snip },
    microcompact: { ...DEFAULT_MICROCOMPACT, ...input.microcompact },
    prune: { ...DEFAULT_PRUNE, ...input.prune },
    compaction: { ...DEFAULT_COMPACTION, ...input.compaction },
    evict: { target: 0.75, enforceToolResults: false, ...input.evict },
    components,
  };
  const z = c.zones;
  for (const [k, v] of Object.entries(z)) fraction(`zones.${k}`, v);
  if (!(z.yellow < z.orange && z.orange < z.red)) throw new RangeError('context config: zones must rise: yellow < orange < red');
  fraction('compaction.threshold', c.compaction.threshold);
  fraction('compaction.keepFraction', c.compaction.keepFraction);
  fraction('evict.target', c.evict.target);
  fraction('exactCountWithin', c.exactCountWithin);
  for (const s of c.budget.steps) fraction('budget.steps[].from', s.from);
  if (!Number.isInteger(c.velocityTurns) || c.velocityTurns < 1) throw new RangeError('context config: velocityTurns must be an integer ≥ 1');
  if (!Number.isInteger(c.compaction.maxFailures) || c.compaction.maxFailures < 1) throw new RangeError('context config: compaction.maxFailures must be ≥ 1');
  for (const [k, v] of Object.entries({ ...c.prune, ...c.microcompact, thresholdBytes: c.persist.thresholdBytes, truncateChars: c.persist.truncateChars })) {
    if (typeof v === 'number') nonNegative(k, v);
  }
  for (const [name, l] of Object.entries(components)) {
    fraction(`components.${name}.hard`, l.hard);
    fraction(`components.${name}.soft`, l.soft);
  }
  return c;
}
