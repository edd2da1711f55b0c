/** A memory's identity (subject, attribute, value), read from the language analysis, not word overlap. */
import { describe, expect, it } from 'vitest';
import { sameValue, slotKey, slotOf } from '../../../src/memory/store/slots.js';

const slot = (text: string) => {
  const s = slotOf(text);
  if (s === undefined) throw new Error(`no slot in "${text}"`);
  return s;
};

describe('slotOf', () => {
  it('reads one slot from two wordings that share few words', () => {
    const a = slot('acme-api uses pnpm as its package manager');
    const b = slot('package manager for acme-api: pnpm');
    expect(slotKey(a)).toBe(slotKey(b));
    expect(sameValue(a, b)).toBe(true);
  });

  it('tells two slots apart though all but one word is shared', () => {
    expect(slotKey(slot('The frontend app deploys to staging'))).not.toBe(slotKey(slot('The backend app deploys to staging')));
  });

  it('gives the same slot another value when the choice changed', () => {
    const before = slot('Use yarn as the package manager');
    const after = slot('Use pnpm as the package manager');
    expect(slotKey(before)).toBe(slotKey(after));
    expect(sameValue(before, after)).toBe(false);
  });

  it('finds no slot in what states nothing', () => {
    expect(slotOf('Hello there')).toBeUndefined();
  });
});
