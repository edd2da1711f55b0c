/**
 * The window model. The context window (input + output capacity) and the max output tokens are two
 * settings: a known-model table gives defaults for each, overrides replace either one, and neither
 * is ever computed from the other (a small max_tokens must not shrink the window, nor a large one
 * silently eat it). What a request may use for input is the difference.
 */
import { fail, ok, type Result } from './types.js';

export interface ModelLimits {
  contextWindow: number;
  /** The most the model may be asked to write (the API rejects a larger max_tokens). */
  maxOutput: number;
}

export interface WindowSpec {
  contextWindow: number;
  /** Sent as max_tokens on every request, and reserved out of the window for it. */
  maxOutputTokens: number;
}

export interface ResolvedWindow extends WindowSpec {
  model?: string;
  /** false: the model is not in the table and no override was given for both figures. */
  known: boolean;
}

export interface WindowOverrides {
  contextWindow?: number;
  maxOutputTokens?: number;
}

const K = 1000;

/**
 * Longest matching prefix wins, so dated snapshots (claude-haiku-4-5-20251001) find their family.
 * Sonnet 4 / 4.5 have a 1M window only behind a beta header, so 200K is their default here.
 */
export const MODEL_LIMITS: ReadonlyArray<readonly [prefix: string, limits: ModelLimits]> = [
  ['claude-fable-5', { contextWindow: 1_000 * K, maxOutput: 128 * K }],
  ['claude-opus-5', { contextWindow: 1_000 * K, maxOutput: 128 * K }],
  ['claude-sonnet-5', { contextWindow: 1_000 * K, maxOutput: 128 * K }],
  ['claude-haiku-5', { contextWindow: 1_000 * K, maxOutput: 128 * K }],
  ['claude-opus-4-8', { contextWindow: 1_000 * K, maxOutput: 128 * K }],
  ['claude-opus-4-7', { contextWindow: 1_000 * K, maxOutput: 128 * K }],
  ['claude-opus-4-6', { contextWindow: 1_000 * K, maxOutput: 128 * K }],
  ['claude-sonnet-4-6', { contextWindow: 1_000 * K, maxOutput: 64 * K }],
  ['claude-opus-4-5', { contextWindow: 200 * K, maxOutput: 64 * K }],
  ['claude-sonnet-4-5', { contextWindow: 200 * K, maxOutput: 64 * K }],
  ['claude-haiku-4-5', { contextWindow: 200 * K, maxOutput: 64 * K }],
  ['claude-opus-4-1', { contextWindow: 200 * K, maxOutput: 32 * K }],
  ['claude-opus-4', { contextWindow: 200 * K, maxOutput: 32 * K }],
  ['claude-sonnet-4', { contextWindow: 200 * K, maxOutput: 64 * K }],
  ['claude-3-7-sonnet', { contextWindow: 200 * K, maxOutput: 64 * K }],
  ['claude-3-5-haiku', { contextWindow: 200 * K, maxOutput: 8_192 }],
  ['claude-3-5-sonnet', { contextWindow: 200 * K, maxOutput: 8_192 }],
  ['claude-3-haiku', { contextWindow: 200 * K, maxOutput: 4_096 }],
];

/** Unknown models: the smallest window and a modest output of the current families. */
export const FALLBACK_LIMITS: ModelLimits = { contextWindow: 200 * K, maxOutput: 8_192 };

/**
 * Default max_tokens when not overridden: the model's limit, at most this. Every request reserves
 * max_tokens out of the window, and a coding turn rarely writes more than 32K.
 */
export const DEFAULT_MAX_OUTPUT_TOKENS = 32 * K;

export function modelLimits(model: string): ModelLimits | undefined {
  let best: readonly [string, ModelLimits] | undefined;
  for (const entry of MODEL_LIMITS) {
    if (model.startsWith(entry[0]) && (!best || entry[0].length > best[0].length)) best = entry;
  }
  return best?.[1];
}

const positiveInt = (n: number): boolean => Number.isInteger(n) && n > 0;

/** Why a window cannot be used, or undefined. */
export function checkWindow(w: WindowSpec): string | undefined {
  if (!positiveInt(w.contextWindow)) return `contextWindow must be a positive integer (got ${w.contextWindow})`;
  if (!positiveInt(w.maxOutputTokens)) return `maxOutputTokens must be a positive integer (got ${w.maxOutputTokens})`;
  if (w.maxOutputTokens >= w.contextWindow / 2) {
    return `maxOutputTokens (${w.maxOutputTokens}) must be under half the context window (${w.contextWindow}), or no room is left for input`;
  }
  return undefined;
}

/** The window for a model: table defaults, then overrides; each figure independent of the other. */
export function resolveWindow(model: string | undefined, overrides: WindowOverrides = {}): Result<ResolvedWindow> {
  const table = model ? modelLimits(model) : undefined;
  const limits = table ?? FALLBACK_LIMITS;
  const w: ResolvedWindow = {
    contextWindow: overrides.contextWindow ?? limits.contextWindow,
    maxOutputTokens: overrides.maxOutputTokens ?? Math.min(limits.maxOutput, DEFAULT_MAX_OUTPUT_TOKENS),
    known: table !== undefined || (overrides.contextWindow !== undefined && overrides.maxOutputTokens !== undefined),
  };
  if (model) w.model = model;
  const bad = checkWindow(w);
  if (bad) return fail('invalid_window', bad);
  if (table && w.maxOutputTokens > table.maxOutput) {
    return fail('invalid_window', `maxOutputTokens ${w.maxOutputTokens} is over ${model}'s limit of ${table.maxOutput}`);
  }
  return ok(w);
}

/** Tokens a request's input may use: estimate(request) + max_tokens ≤ context window. */
export function inputBudget(w: WindowSpec): number {
  return w.contextWindow - w.maxOutputTokens;
}
