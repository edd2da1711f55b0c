import { describe, expect, it } from 'vitest';
import type { MessageParam } from '@anthropic-ai/sdk/resources/messages';
import { collectBlocks, evict, hybridPolicy, typeAgePolicy } from '../../../src/agent/context/policy.js';
import { currentTurnStart, PLACEHOLDER_PREFIX } from '../../../src/agent/context/blocks.js';
import { call, filler, textOf, user } from './helpers.js';

const say = (text: string): MessageParam => ({ role: 'assistant', content: [{ type: 'text', text }] });

describe('eviction policy', () => {
  const history = (): MessageParam[] => [
    user(`THE TASK ${filler(2000)}`),
    ...call('old', 'read_file', { path: 'src/old.ts' }, filler(4000, 'old')),
    say(`Planning the next step ${filler(2000)}`),
    user(`a follow-up from the user ${filler(2000)}`),
    ...call('mid', 'read_file', { path: 'src/mid.ts' }, filler(4000, 'mid')),
    ...call('new', 'read_file', { path: 'src/new.ts' }, filler(4000, 'new')),
  ];

  it('never offers the pinned task statement or the current turn', () => {
    const h = history();
    const blocks = collectBlocks(h, new Set([0]), currentTurnStart(h));
    expect(blocks.some((b) => b.msgIndex === 0)).toBe(false);
    expect(blocks.some((b) => b.msgIndex >= h.length - 2)).toBe(false);
  });

  it('type-age: old tool results first, then text; oldest first within a type', () => {
    const h = history();
    const blocks = collectBlocks(h, new Set([0]), currentTurnStart(h));
    const order = [...blocks].sort((a, b) => typeAgePolicy.score(a) - typeAgePolicy.score(b)).map((b) => `${b.kind}@${b.msgIndex}`);
    expect(order).toEqual(['tool_result@2', 'tool_result@6', 'assistant_text@3', 'user_text@4']);
  });

  it('evicts in policy order until the target is freed, leaving placeholders', () => {
    const h = history();
    const r = evict(h, collectBlocks(h, new Set([0]), currentTurnStart(h)), typeAgePolicy, 500);
    expect(r).toMatchObject({ tier: 'evict', blocks: 1 });
    expect(textOf(h, 'old').startsWith(PLACEHOLDER_PREFIX)).toBe(true);
    expect(textOf(h, 'old')).toContain('src/old.ts');
    expect(textOf(h, 'mid')).toContain('mid lorem');
  });

  it('hybrid: a block the later conversation still refers to outlives an unreferenced newer one', () => {
    const h = history();
    h.splice(7, 0, say('As seen in src/old.ts, the parser must stream.'), user('ok'));
    const blocks = collectBlocks(h, new Set([0]), currentTurnStart(h));
    const old = blocks.find((b) => b.kind === 'tool_result' && b.call?.id === 'old');
    const mid = blocks.find((b) => b.kind === 'tool_result' && b.call?.id === 'mid');
    if (!old || !mid) throw new Error('blocks missing');
    expect(old.references).toBe(1);
    expect(mid.references).toBe(0);
    const policy = hybridPolicy();
    expect(policy.score(old)).toBeGreaterThan(policy.score(mid));
    expect(typeAgePolicy.score(old)).toBeLessThan(typeAgePolicy.score(mid)); // the default would clear it first
    evict(h, blocks, policy, 1500);
    expect(textOf(h, 'mid').startsWith(PLACEHOLDER_PREFIX)).toBe(true);
    expect(textOf(h, 'old')).toContain('old lorem');
  });
});
