import { describe, expect, it } from 'vitest';
import { applyBudget, budgetCap, DEFAULT_BUDGET } from '../../../src/agent/context/budget.js';
import { call, filler, textOf, user } from './helpers.js';

const history = () => [
  user('task'),
  ...call('a', 'bash', {}, filler(40_000, 'a')),
  ...call('b', 'bash', {}, filler(20_000, 'b')),
  ...call('c', 'bash', {}, filler(40_000, 'c')),
];

describe('tier budget', () => {
  it('caps at 30,000 from 50 % and 15,000 from 70 %', () => {
    expect(budgetCap(0.49, DEFAULT_BUDGET.steps)).toBeUndefined();
    expect(budgetCap(0.5, DEFAULT_BUDGET.steps)).toBe(30_000);
    expect(budgetCap(0.7, DEFAULT_BUDGET.steps)).toBe(15_000);
  });

  it('does nothing under 50 %', () => {
    const h = history();
    expect(applyBudget(h, 0.45, DEFAULT_BUDGET, 5).blocks).toBe(0);
    expect(textOf(h, 'a').length).toBe(40_000);
  });

  it('from 50 % cuts results over 30,000 characters to head and tail, not the current turn', () => {
    const h = history();
    const r = applyBudget(h, 0.6, DEFAULT_BUDGET, 5);
    expect(r).toMatchObject({ tier: 'budget', blocks: 1 });
    expect(r.freedTokens).toBeGreaterThan(2000);
    expect(textOf(h, 'a').length).toBeLessThanOrEqual(30_000);
    expect(textOf(h, 'a')).toMatch(/^a lorem[\s\S]*\[\.\.\. budgeted: \d+ chars cut from the middle \.\.\.\][\s\S]*lorem/);
    expect(textOf(h, 'b').length).toBe(20_000);
    expect(textOf(h, 'c').length).toBe(40_000); // the current turn
  });

  it('from 70 % cuts results over 15,000', () => {
    const h = history();
    expect(applyBudget(h, 0.8, DEFAULT_BUDGET, 5).blocks).toBe(2);
    expect(textOf(h, 'a').length).toBeLessThanOrEqual(15_000);
    expect(textOf(h, 'b').length).toBeLessThanOrEqual(15_000);
  });

  it('can be switched off', () => {
    const h = history();
    expect(applyBudget(h, 0.9, { ...DEFAULT_BUDGET, enabled: false }, 5).blocks).toBe(0);
  });
});
