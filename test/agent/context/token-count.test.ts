import { describe, expect, it } from 'vitest';
import type { MessageParam } from '@anthropic-ai/sdk/resources/messages';
import { blockTokens, IMAGE_TOKENS, messagesTokens, roughRequestTokens, TokenAccount, usageInputTokens } from '../../../src/agent/context/token-count.js';

describe('token accounting', () => {
  it('counts system prompt, tool schemas, tool_use inputs and images', () => {
    const messages: MessageParam[] = [{ role: 'user', content: 'u'.repeat(400) }];
    const base = roughRequestTokens({ messages });
    expect(roughRequestTokens({ messages, system: 's'.repeat(400) })).toBe(base + 100);
    const tools = [{ name: 't', description: 'd'.repeat(400), input_schema: { type: 'object' as const } }];
    expect(roughRequestTokens({ messages, tools })).toBeGreaterThan(base + 100);
    const withUse: MessageParam[] = [
      ...messages,
      { role: 'assistant', content: [{ type: 'tool_use', id: 'a', name: 'write', input: { text: 'x'.repeat(4000) } }] },
    ];
    expect(messagesTokens(withUse) - messagesTokens(messages)).toBeGreaterThan(1000);
    const image = { type: 'image' as const, source: { type: 'base64' as const, media_type: 'image/png' as const, data: 'A'.repeat(1_000_000) } };
    expect(blockTokens(image)).toBe(IMAGE_TOKENS);
    expect(blockTokens({ type: 'tool_result', tool_use_id: 'a', content: [image, { type: 'text', text: 'y'.repeat(40) }] })).toBe(IMAGE_TOKENS + 10 + 10);
  });

  it('usage input = input + cache read + cache creation', () => {
    expect(usageInputTokens({ input_tokens: 10, cache_read_input_tokens: 1000, cache_creation_input_tokens: 200 })).toBe(1210);
    expect(usageInputTokens({ input_tokens: 10, cache_read_input_tokens: null })).toBe(10);
  });

  it('is chars/4 before any anchor', () => {
    const a = new TokenAccount();
    expect(a.anchored).toBe(false);
    expect(a.estimate(1234)).toBe(1234);
  });

  it('anchors on the usage of the request it sent, plus chars/4 of what was added since', () => {
    const a = new TokenAccount();
    expect(a.onUsage({ input_tokens: 100 })).toBe(false); // nothing sent yet
    a.sent(1000);
    a.onUsage({ input_tokens: 50, cache_read_input_tokens: 900, cache_creation_input_tokens: 150 }); // the API counted 1100
    expect(a.estimate(1000)).toBe(1100);
    expect(a.estimate(1200)).toBe(1100 + Math.ceil(200 * 1.1)); // added text scaled up by the observed ratio
  });

  it('never undercounts added text and never overcounts freed text', () => {
    const dense = new TokenAccount();
    dense.sent(1000);
    dense.onUsage({ input_tokens: 1500 }); // the model counts 1.5× chars/4
    expect(dense.estimate(900)).toBe(1400); // freed 100 rough → at most 100 freed
    const sparse = new TokenAccount();
    sparse.sent(1000);
    sparse.onUsage({ input_tokens: 800 }); // 0.8×
    expect(sparse.estimate(1100)).toBe(900); // added at least chars/4
    expect(sparse.estimate(900)).toBe(720); // freed at most 0.8 × 100
  });

  it('an exact count replaces the anchor', () => {
    const a = new TokenAccount();
    a.sent(1000);
    a.onUsage({ input_tokens: 1000 });
    a.onExact(3000, 2500);
    expect(a.estimate(2500)).toBe(3000);
  });
});
