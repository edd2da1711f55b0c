import { describe, expect, it } from 'vitest';
import { applyMicrocompact, DEFAULT_MICROCOMPACT } from '../../../src/agent/context/microcompact.js';
import { PLACEHOLDER_PREFIX } from '../../../src/agent/context/blocks.js';
import { call, filler, textOf, user } from './helpers.js';

const history = () => {
  const h = [user('t')];
  for (let i = 1; i <= 6; i++) h.push(...call(`t${i}`, 'bash', { command: `c${i}` }, filler(2000, `o${i}`)));
  h.push(user('next'));
  return h;
};

describe('tier microcompact', () => {
  it('does nothing while the cache is warm (idle < 5 min)', () => {
    const h = history();
    expect(applyMicrocompact(h, DEFAULT_MICROCOMPACT, 4 * 60_000, h.length - 1).blocks).toBe(0);
  });

  it('after 5 idle minutes clears all but the 3 newest tool results', () => {
    const h = history();
    const r = applyMicrocompact(h, DEFAULT_MICROCOMPACT, 5 * 60_000, h.length - 1);
    expect(r).toMatchObject({ tier: 'microcompact', blocks: 3 });
    for (const id of ['t1', 't2', 't3']) expect(textOf(h, id).startsWith(PLACEHOLDER_PREFIX)).toBe(true);
    for (const id of ['t4', 't5', 't6']) expect(textOf(h, id)).toContain('lorem');
    expect(textOf(h, 't1')).toContain('c1'); // says what was called
  });
});
