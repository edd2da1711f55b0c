import { describe, expect, it } from 'vitest';
import { estimateContentTokens, estimateRequestTokens, estimateTokens } from '../../src/llm/tokens.js';

describe('token estimates', () => {
  it('is ceil(chars / 4)', () => {
    expect(estimateTokens('')).toBe(0);
    expect(estimateTokens('abcd')).toBe(1);
    expect(estimateTokens('abcde')).toBe(2);
    expect(estimateTokens('x'.repeat(4000))).toBe(1000);
  });

  it('counts tool_use inputs and tool results', () => {
    const input = { command: 'x'.repeat(400) };
    expect(estimateContentTokens([{ type: 'tool_use', id: 't1', name: 'Bash', input }])).toBeGreaterThanOrEqual(100);
    expect(estimateContentTokens([{ type: 'tool_result', tool_use_id: 't1', content: 'y'.repeat(800) }])).toBe(200);
    expect(estimateContentTokens([{ type: 'tool_result', tool_use_id: 't1', content: [{ type: 'text', text: 'z'.repeat(80) }] }])).toBe(20);
  });

  it('adds system, messages and tools', () => {
    const system = 's'.repeat(400);
    const messages = [
      { role: 'user' as const, content: 'u'.repeat(400) },
      { role: 'assistant' as const, content: [{ type: 'text' as const, text: 'a'.repeat(400) }] },
    ];
    const tools = [{ name: 'record', input_schema: { type: 'object' as const, properties: { d: { type: 'string', description: 'd'.repeat(400) } } } }];
    const base = estimateRequestTokens({ system, messages });
    expect(base).toBeGreaterThanOrEqual(300);
    expect(base).toBeLessThan(320);
    expect(estimateRequestTokens({ system, messages, tools })).toBeGreaterThan(base + 100);
  });
});
