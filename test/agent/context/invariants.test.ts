import { describe, expect, it } from 'vitest';
import type { MessageParam } from '@anthropic-ai/sdk/resources/messages';
import { checkInvariants, INTERRUPTED_RESULT, repairInvariants } from '../../../src/agent/context/invariants.js';
import { assistant, call, user } from './helpers.js';

const kinds = (ms: MessageParam[]) => checkInvariants(ms).map((v) => v.kind);

describe('invariants', () => {
  it('a well-formed history passes', () => {
    const h = [user('t'), ...call('a', 'bash', {}, 'out'), assistant('done'), user('thanks')];
    expect(checkInvariants(h)).toEqual([]);
    expect(repairInvariants(h).repairs).toEqual([]);
  });

  it('a tool_use without its result gets a synthetic error result', () => {
    const h: MessageParam[] = [user('t'), { role: 'assistant', content: [{ type: 'tool_use', id: 'a', name: 'bash', input: {} }] }];
    expect(kinds(h)).toEqual(['missing_tool_result']);
    const { messages, repairs } = repairInvariants(h);
    expect(repairs.map((r) => r.kind)).toEqual(['missing_tool_result']);
    expect(messages[2]).toEqual({ role: 'user', content: [{ type: 'tool_result', tool_use_id: 'a', is_error: true, content: INTERRUPTED_RESULT }] });
    expect(checkInvariants(messages)).toEqual([]);
  });

  it('a tool_result without its tool_use is removed; a message emptied by that goes too', () => {
    const [, orphan] = call('ghost', 'bash', {}, 'out');
    const h = [user('t'), assistant('thinking'), orphan as MessageParam, assistant('more')];
    expect(kinds(h)).toContain('orphan_tool_result');
    const { messages } = repairInvariants(h);
    expect(checkInvariants(messages)).toEqual([]);
    expect(JSON.stringify(messages)).not.toContain('ghost');
    expect(messages.map((m) => m.role)).toEqual(['user', 'assistant']);
  });

  it('merges consecutive same-role messages and puts tool results first', () => {
    const [use, res] = call('a', 'bash', {}, 'out');
    const h: MessageParam[] = [
      user('one'),
      user('two'),
      use as MessageParam,
      { role: 'user', content: [{ type: 'text', text: 'note' }, ...((res as MessageParam).content as [])] },
    ];
    expect(kinds(h)).toEqual(expect.arrayContaining(['roles_not_alternating', 'results_not_first']));
    const { messages } = repairInvariants(h);
    expect(checkInvariants(messages)).toEqual([]);
    expect(messages[0]?.content).toEqual([
      { type: 'text', text: 'one' },
      { type: 'text', text: 'two' },
    ]);
    expect((messages[2]?.content as Array<{ type: string }>)[0]?.type).toBe('tool_result');
  });

  it('removes empty messages and blank text blocks', () => {
    const h: MessageParam[] = [
      user('t'),
      {
        role: 'assistant',
        content: [
          { type: 'text', text: '  ' },
          { type: 'text', text: 'ok' },
        ],
      },
      { role: 'user', content: '' },
      { role: 'assistant', content: [] },
    ];
    expect(kinds(h)).toEqual(expect.arrayContaining(['empty_content']));
    const { messages } = repairInvariants(h);
    expect(checkInvariants(messages)).toEqual([]);
    expect(messages).toEqual([user('t'), { role: 'assistant', content: [{ type: 'text', text: 'ok' }] }]);
  });

  it('a history starting with the assistant gets a user message first', () => {
    const { messages } = repairInvariants([assistant('hi'), user('t')]);
    expect(messages[0]?.role).toBe('user');
    expect(checkInvariants(messages)).toEqual([]);
  });

  it('drops duplicate results and keeps message objects in place', () => {
    const use: MessageParam = { role: 'assistant', content: [{ type: 'tool_use', id: 'a', name: 'x', input: {} }] };
    const res: MessageParam = {
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: 'a', content: '1' },
        { type: 'tool_result', tool_use_id: 'a', content: '2' },
      ],
    };
    const first = user('t');
    const { messages } = repairInvariants([first, use, res]);
    expect(messages[0]).toBe(first);
    expect(messages[2]).toBe(res);
    expect(res.content).toEqual([{ type: 'tool_result', tool_use_id: 'a', content: '1' }]);
  });
});
