import { statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readTranscript } from '../../../src/memory/transcripts/index.js';
import { createMessagesParser } from '../../../src/memory/transcripts/messages.js';
import { fixture, tempDir } from './helpers.js';

const dir = tempDir('messages');

describe('plain messages, JSONL (Anthropic shape)', () => {
  it('reads each block kind, keeps ids and timestamps, names tool results', async () => {
    const file = fixture('messages.jsonl');
    const result = await readTranscript(file);
    expect(result).toMatchObject({ format: 'messages', malformedLines: 1, linesRead: 8, endOffset: statSync(file).size });
    expect(result.messages.map((m) => [m.id, m.role, m.kind])).toEqual([
      ['@0', 'system', 'text'],
      ['m1', 'user', 'text'],
      ['m2', 'assistant', 'text'],
      ['m2:1', 'assistant', 'tool_use'],
      ['@406', 'user', 'tool_result'],
      ['@528', 'assistant', 'thinking'],
      ['@528:1', 'assistant', 'text'],
      ['@721', 'user', 'text'],
    ]);
    expect(result.messages[1]?.timestamp).toBe('2025-10-01T12:00:00Z');
    expect(result.messages[3]).toMatchObject({ toolName: 'write_file', toolUseId: 'toolu_9', timestamp: '2025-10-01T12:00:04Z' });
    expect(result.messages[4]).toMatchObject({ toolName: 'write_file', toolUseId: 'toolu_9', text: 'wrote 1 file' });
    // An epoch `created_at` (seconds) becomes ISO.
    expect(result.messages[5]?.timestamp).toBe('2025-10-01T12:00:10.000Z');
  });
});

describe('plain messages, JSON array (OpenAI chat shape)', () => {
  it('reads text parts, tool_calls, tool and function results', async () => {
    const file = fixture('messages-openai.json');
    const result = await readTranscript(file);
    expect(result).toMatchObject({ format: 'messages', malformedLines: 1, linesRead: 9, endOffset: statSync(file).size });
    expect(result.messages.map((m) => [m.id, m.role, m.kind, m.text])).toEqual([
      ['#0', 'system', 'text', 'You are terse.'],
      ['#1', 'system', 'text', 'Prefer pnpm.'],
      ['#2', 'user', 'text', 'What is in package.json?'],
      ['#3', 'assistant', 'tool_use', 'read_file({"path":"package.json"})'],
      ['#4', 'user', 'tool_result', '{"name": "billing"}'],
      ['#5', 'assistant', 'text', 'It is the billing package.'],
      ['#7', 'assistant', 'tool_use', 'legacy_fn()'],
      ['#8', 'user', 'tool_result', 'legacy output'],
    ]);
    expect(result.messages[4]).toMatchObject({ toolName: 'read_file', toolUseId: 'call_A' });
    expect(result.messages[7]?.toolName).toBe('legacy_fn');
  });

  it('counts an invalid or unfinished array as one malformed unit and consumes nothing', async () => {
    const file = join(dir, 'unfinished.json');
    writeFileSync(file, '[{"role":"user","content":"hi"},');
    expect(await readTranscript(file)).toMatchObject({ messages: [], malformedLines: 1, endOffset: 0 });
  });

  it('cannot resume an array mid-way, but an unchanged one yields nothing', async () => {
    const file = join(dir, 'done.json');
    writeFileSync(file, JSON.stringify([{ role: 'user', content: 'hi' }]));
    const size = statSync(file).size;
    expect(await readTranscript(file, { offset: size })).toMatchObject({ messages: [], endOffset: size });
    await expect(readTranscript(file, { offset: 3 })).rejects.toMatchObject({
      code: 'bad_request',
      message: expect.stringMatching(/JSON array.*again from 0/),
    });
  });
});

describe('message shapes', () => {
  const parse = (line: Record<string, unknown>) => createMessagesParser().parse(line, '@0');

  it('skips unknown roles and empty content without calling them malformed', () => {
    expect(parse({ role: 'narrator', content: 'x' })).toEqual([]);
    expect(parse({ content: 'no role' })).toEqual([]);
    expect(parse({ role: 'assistant', content: '   ' })).toEqual([]);
    expect(parse({ role: 'assistant', content: null })).toEqual([]);
  });

  it('reads OpenAI output_text/input_text parts and several tool calls in order', () => {
    expect(
      parse({
        role: 'assistant',
        content: [{ type: 'output_text', text: 'Two calls:' }],
        tool_calls: [
          { id: 'a', type: 'function', function: { name: 'ls', arguments: '{"dir":"."}' } },
          { id: 'b', type: 'function', function: { name: 'cat', arguments: '{"file":"x"}' } },
        ],
      }).map((m) => [m.id, m.kind, m.text]),
    ).toEqual([
      ['@0', 'text', 'Two calls:'],
      ['@0:1', 'tool_use', 'ls({"dir":"."})'],
      ['@0:2', 'tool_use', 'cat({"file":"x"})'],
    ]);
  });

  it('reads Anthropic tool_result blocks with block content and errors', () => {
    expect(
      parse({
        role: 'user',
        content: [{ type: 'tool_result', tool_use_id: 't1', is_error: true, content: [{ type: 'text', text: 'boom' }, { type: 'image' }] }],
      }),
    ).toEqual([{ id: '@0', role: 'user', kind: 'tool_result', origin: 'tool', text: 'boom\n[image]', toolUseId: 't1', isError: true }]);
  });

  it('reads content given as one block, and a text field in place of content', () => {
    expect(parse({ role: 'user', content: { type: 'text', text: 'Use tabs.' } })).toEqual([
      { id: '@0', role: 'user', kind: 'text', origin: 'typed', text: 'Use tabs.' },
    ]);
    expect(parse({ role: 'assistant', text: 'Noted.' })).toEqual([{ id: '@0', role: 'assistant', kind: 'text', origin: 'assistant', text: 'Noted.' }]);
    expect(parse({ role: 'system', content: 'You are helpful.' })[0]?.origin).toBe('system');
  });

  it('takes what an agent wrote into AGENTS.md as instructions once the write succeeded', () => {
    const parser = createMessagesParser();
    parser.parse(
      {
        role: 'assistant',
        content: [{ type: 'tool_use', id: 'w1', name: 'write_file', input: { path: '/repo/AGENTS.md', content: 'Run the linter first.' } }],
      },
      '@0',
    );
    const out = parser.parse({ role: 'user', content: [{ type: 'tool_result', tool_use_id: 'w1', content: 'wrote 21 bytes' }] }, '@1');
    expect(out.map((m) => [m.id, m.origin, m.text])).toEqual([
      ['@1', 'tool', 'wrote 21 bytes'],
      ['@1:instructions', 'instructions', '/repo/AGENTS.md:\nRun the linter first.'],
    ]);
    parser.parse({ role: 'assistant', content: [{ type: 'tool_use', id: 'w2', name: 'write_file', input: { path: '/repo/AGENTS.md', content: 'x' } }] }, '@2');
    expect(
      parser.parse({ role: 'user', content: [{ type: 'tool_result', tool_use_id: 'w2', is_error: true, content: 'EACCES' }] }, '@3').map((m) => m.origin),
    ).toEqual(['tool']);
  });
});
