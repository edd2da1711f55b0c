import { describe, expect, it } from 'vitest';
import { applyPrune, DEFAULT_PRUNE } from '../../../src/agent/context/prune.js';
import { PLACEHOLDER_PREFIX } from '../../../src/agent/context/blocks.js';
import { call, filler, textOf, user } from './helpers.js';

/** `n` tool results of ~`tokens` tokens each. */
function history(n: number, tokens: number) {
  const h = [user('t')];
  for (let i = 1; i <= n; i++) h.push(...call(`t${i}`, 'bash', {}, filler(tokens * 4, `o${i}`)));
  h.push(user('next'));
  return h;
}

describe('tier prune', () => {
  it('protects the newest 40,000 tokens of tool output', () => {
    const h = history(4, 10_000); // 40K: all protected
    expect(applyPrune(h, DEFAULT_PRUNE, h.length - 1).blocks).toBe(0);
  });

  it('does not prune when it would free under 20,000 tokens', () => {
    const h = history(6, 9_000); // 54K: the oldest 9K start beyond the protected 40K
    expect(applyPrune(h, DEFAULT_PRUNE, h.length - 1).blocks).toBe(0);
  });

  it('clears the older results when that frees at least 20,000 tokens', () => {
    const h = history(8, 8_000); // 64K: the 5 newest start inside 40K; the 3 older (24K) go
    const r = applyPrune(h, DEFAULT_PRUNE, h.length - 1);
    expect(r.blocks).toBe(3);
    expect(r.freedTokens).toBeGreaterThanOrEqual(20_000);
    for (const id of ['t1', 't2', 't3']) expect(textOf(h, id).startsWith(PLACEHOLDER_PREFIX)).toBe(true);
    for (const id of ['t4', 't5', 't6', 't7', 't8']) expect(textOf(h, id)).toContain('lorem');
  });

  it('settings are the tier config', () => {
    const h = history(4, 5_000);
    expect(applyPrune(h, { enabled: true, protectTokens: 5_000, minimumTokens: 5_000 }, h.length - 1).blocks).toBe(3);
  });
});
