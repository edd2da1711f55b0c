import { describe, expect, it } from 'vitest';
import { checkWindow, FALLBACK_LIMITS, inputBudget, modelLimits, resolveWindow } from '../../../src/agent/context/model-window.js';

describe('window model', () => {
  it('finds models by longest prefix, dated snapshots included', () => {
    expect(modelLimits('claude-haiku-4-5-20251001')).toEqual({ contextWindow: 200_000, maxOutput: 64_000 });
    expect(modelLimits('claude-opus-4-1-20250805')?.maxOutput).toBe(32_000);
    expect(modelLimits('claude-opus-4-6')?.contextWindow).toBe(1_000_000);
    expect(modelLimits('gpt-4o')).toBeUndefined();
  });

  it('defaults max output to the model limit capped at 32K, never derived from the window', () => {
    const w = resolveWindow('claude-sonnet-4-5');
    expect(w.ok && w.value).toMatchObject({ contextWindow: 200_000, maxOutputTokens: 32_000, known: true });
    const small = resolveWindow('claude-3-5-haiku');
    expect(small.ok && small.value.maxOutputTokens).toBe(8_192);
  });

  it('overrides each figure independently', () => {
    const a = resolveWindow('claude-sonnet-4-5', { maxOutputTokens: 4_000 });
    expect(a.ok && a.value).toMatchObject({ contextWindow: 200_000, maxOutputTokens: 4_000 });
    const b = resolveWindow('claude-sonnet-4-5', { contextWindow: 100_000 });
    expect(b.ok && b.value).toMatchObject({ contextWindow: 100_000, maxOutputTokens: 32_000 });
    // A smaller window does not quietly shrink max output: the pair is rejected instead.
    expect(resolveWindow('claude-sonnet-4-5', { contextWindow: 64_000 }).ok).toBe(false);
  });

  it('falls back for unknown models and says so', () => {
    const w = resolveWindow('local-model');
    expect(w.ok && w.value).toMatchObject({ contextWindow: FALLBACK_LIMITS.contextWindow, maxOutputTokens: FALLBACK_LIMITS.maxOutput, known: false });
    const both = resolveWindow('local-model', { contextWindow: 32_000, maxOutputTokens: 2_000 });
    expect(both.ok && both.value.known).toBe(true);
  });

  it('rejects impossible windows as values', () => {
    const over = resolveWindow('claude-3-5-haiku', { maxOutputTokens: 16_000 });
    expect(over.ok).toBe(false);
    expect(!over.ok && over.error.code).toBe('invalid_window');
    expect(resolveWindow(undefined, { contextWindow: 10_000, maxOutputTokens: 6_000 }).ok).toBe(false);
    expect(checkWindow({ contextWindow: 0, maxOutputTokens: 1 })).toMatch(/positive/);
  });

  it('the input budget is the window minus the output reserve', () => {
    expect(inputBudget({ contextWindow: 64_000, maxOutputTokens: 8_000 })).toBe(56_000);
  });
});
