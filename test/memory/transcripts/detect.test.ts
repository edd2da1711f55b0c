import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { classifyLine } from '../../../src/memory/transcripts/detect.js';
import { detectTranscriptFormat, readTranscript } from '../../../src/memory/transcripts/index.js';
import { fixture, jsonl, tempDir } from './helpers.js';

const dir = tempDir('detect');

function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

describe('format detection', () => {
  it.each([
    ['claude-code.jsonl', 'claude-code'],
    ['codex.jsonl', 'codex'],
    ['codex-legacy.jsonl', 'codex'],
    ['messages.jsonl', 'messages'],
    ['messages-openai.json', 'messages'],
  ])('detects %s as %s', async (name, format) => {
    expect(await detectTranscriptFormat(fixture(name))).toBe(format);
  });

  it('classifies single lines by their telltale fields', () => {
    expect(classifyLine({ type: 'summary', summary: 'x', leafUuid: 'u' })).toBe('claude-code');
    expect(classifyLine({ type: 'file-history-snapshot', messageId: 'm' })).toBe('claude-code');
    expect(classifyLine({ type: 'user', uuid: 'u', message: { role: 'user', content: 'hi' } })).toBe('claude-code');
    expect(classifyLine({ timestamp: 't', type: 'event_msg', payload: {} })).toBe('codex');
    expect(classifyLine({ record_type: 'state' })).toBe('codex');
    expect(classifyLine({ id: 'x', timestamp: '2025-01-01T00:00:00Z', instructions: null })).toBe('codex');
    expect(classifyLine({ type: 'function_call', name: 'shell', arguments: '{}', call_id: 'c' })).toBe('codex');
    expect(classifyLine({ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'hi' }] })).toBe('codex');
    // An Anthropic API message object is plain messages, not a Codex item.
    expect(classifyLine({ type: 'message', role: 'assistant', content: [{ type: 'text', text: 'hi' }] })).toBe('messages');
    expect(classifyLine({ role: 'tool', tool_call_id: 'c', content: 'ok' })).toBe('messages');
    expect(classifyLine({ hello: 'world' })).toBeUndefined();
  });

  it('skips blank, malformed and unknown lines at the start', async () => {
    const path = file('noisy.jsonl', `\n{oops\n${jsonl({ unrelated: true }, { role: 'user', content: 'hi' })}`);
    expect(await detectTranscriptFormat(path)).toBe('messages');
  });

  it('detects a JSON array even when it is one huge line', async () => {
    const big = [{ role: 'user', content: 'x'.repeat(2_000_000) }];
    expect(await detectTranscriptFormat(file('big.json', `\uFEFF  ${JSON.stringify(big)}`))).toBe('messages');
  });

  it('says what to do when nothing is recognisable', async () => {
    await expect(detectTranscriptFormat(file('junk.jsonl', jsonl({ a: 1 }, { b: 2 })))).rejects.toMatchObject({
      code: 'bad_request',
      message: expect.stringMatching(/none of its first 2 lines.*pass the format explicitly/),
    });
    await expect(detectTranscriptFormat(file('empty.jsonl', ''))).rejects.toThrow(/no complete line yet/);
  });

  it('lets the caller name the format, e.g. the one stored from the first parse', async () => {
    const path = file('forced.jsonl', jsonl({ id: 'm1', role: 'user', content: 'typed' }));
    expect(await readTranscript(path, { format: 'messages' })).toMatchObject({
      format: 'messages',
      messages: [{ id: 'm1', role: 'user', kind: 'text', text: 'typed' }],
    });
    // A wrong format finds nothing it knows, and says so by an empty result, not by failing.
    expect(await readTranscript(path, { format: 'claude-code' })).toMatchObject({ format: 'claude-code', messages: [], malformedLines: 0 });
  });
});
