import { statSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { createCodexParser } from '../../../src/memory/transcripts/codex.js';
import { type ParseResult, readTranscript } from '../../../src/memory/transcripts/index.js';
import { fixture } from './helpers.js';

const SESSION = '0199a1b2-7c3d-7e4f-8a5b-6c7d8e9f0a1b';
const file = fixture('codex.jsonl');
let result: ParseResult;

beforeAll(async () => {
  result = await readTranscript(file);
});

describe('Codex rollouts', () => {
  it('takes session id and cwd from session_meta', () => {
    expect(result).toMatchObject({ format: 'codex', sessionId: SESSION, cwd: '/home/bob/src/fetchy', malformedLines: 1 });
  });

  it('leaves the trailing partial line unconsumed', () => {
    const size = statSync(file).size;
    expect(result.endOffset).toBeLessThan(size);
    expect(result.linesRead).toBe(21);
    expect(result.messages.some((m) => m.text === 'now add jitter')).toBe(false);
  });

  it('marks injected environment context as meta and keeps typed messages plain', () => {
    const [env, typed] = result.messages;
    expect(env).toMatchObject({ role: 'user', kind: 'text', meta: true, timestamp: '2025-10-02T14:00:00.010Z' });
    expect(typed).toMatchObject({ role: 'user', kind: 'text', text: 'Add a retry with backoff to the fetch client.' });
    expect(typed?.meta).toBeUndefined();
  });

  it('follows the cwd of turn_context lines', () => {
    expect(result.messages[0]?.cwd).toBe('/home/bob/src/fetchy');
    expect(result.messages[1]?.cwd).toBe('/home/bob/src/fetchy/packages/client');
  });

  it('does not double-count event_msg copies of messages and reasoning', () => {
    const texts = result.messages.map((m) => m.text);
    expect(texts.filter((t) => t === 'Add a retry with backoff to the fetch client.')).toHaveLength(1);
    expect(texts.filter((t) => t === 'Added retries (3, exponential backoff).')).toHaveLength(1);
    expect(result.messages.filter((m) => m.kind === 'thinking')).toHaveLength(1);
  });

  it('reads reasoning summaries as thinking and skips encrypted-only reasoning', () => {
    expect(result.messages.find((m) => m.kind === 'thinking')).toMatchObject({
      role: 'assistant',
      text: '**Locating the client**\nSearch for fetch wrapper.',
    });
  });

  it('renders function calls from their JSON arguments and unwraps shell outputs', () => {
    const calls = result.messages.filter((m) => m.kind === 'tool_use');
    expect(calls.map((m) => m.toolName)).toEqual(['shell', 'shell', 'apply_patch', 'web_search']);
    expect(calls[0]).toMatchObject({ toolUseId: 'call_rg1', text: 'shell({"command":["bash","-lc","rg -n fetchJson"],"workdir":"/home/bob/src/fetchy"})' });
    const outputs = result.messages.filter((m) => m.kind === 'tool_result');
    expect(outputs[0]).toMatchObject({
      role: 'user',
      toolName: 'shell',
      toolUseId: 'call_rg1',
      text: 'src/client.ts:12:export async function fetchJson(url: string) {\n',
    });
    expect(outputs[0]?.isError).toBeUndefined();
    expect(outputs[1]).toMatchObject({ toolUseId: 'call_t1', text: 'npm ERR! missing script: test\n', isError: true });
  });

  it('reads custom tool calls (apply_patch) and their outputs', () => {
    const patch = result.messages.find((m) => m.toolName === 'apply_patch' && m.kind === 'tool_use');
    expect(patch?.text).toMatch(/^apply_patch\(\*\*\* Begin Patch/);
    expect(result.messages.find((m) => m.toolUseId === 'call_p1' && m.kind === 'tool_result')?.text).toMatch(/^Success/);
  });

  it('turns compacted lines into compact summaries', () => {
    expect(result.messages.at(-1)).toMatchObject({ kind: 'summary', compactSummary: true, timestamp: '2025-10-02T15:00:00.000Z' });
  });

  it('names messages by line offset, which is unique and stable', () => {
    const ids = result.messages.map((m) => m.id);
    expect(ids.every((id) => /^@\d+$/.test(id))).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('reads old rollouts without the envelope', async () => {
    const legacy = await readTranscript(fixture('codex-legacy.jsonl'));
    expect(legacy).toMatchObject({ format: 'codex', sessionId: '6a1f7c2e-0d3b-4c8a-9e51-7b2d4f6a8c90', malformedLines: 0 });
    expect(legacy.messages.map((m) => [m.role, m.kind, m.text])).toEqual([
      ['user', 'text', 'Rename loadConfig to readConfig.'],
      ['assistant', 'thinking', 'Find the call sites.'],
      ['assistant', 'tool_use', 'shell({"command":["rg","loadConfig"]})'],
      ['user', 'tool_result', 'src/config.ts:3'],
      ['assistant', 'text', 'Renamed in 2 files.'],
    ]);
  });

  it('maps developer messages to system and keeps unparseable arguments verbatim', () => {
    const parser = createCodexParser();
    const line = (payload: Record<string, unknown>): Record<string, unknown> => ({ timestamp: '2025-10-02T14:00:00Z', type: 'response_item', payload });
    expect(parser.parse(line({ type: 'message', role: 'developer', content: [{ type: 'input_text', text: 'be brief' }] }), '@0')).toMatchObject([
      { role: 'system', kind: 'text', text: 'be brief' },
    ]);
    expect(parser.parse(line({ type: 'function_call', name: 'shell', arguments: '{not json', call_id: 'c9' }), '@1')).toMatchObject([
      { kind: 'tool_use', text: 'shell({not json)' },
    ]);
    expect(parser.parse(line({ type: 'function_call_output', call_id: 'c9', output: 'plain text output' }), '@2')).toMatchObject([
      { kind: 'tool_result', toolName: 'shell', text: 'plain text output' },
    ]);
    expect(parser.parse(line({ type: 'some_future_item', data: 1 }), '@3')).toEqual([]);
    expect(parser.parse({ type: 'response_item', payload: 'garbage' }, '@4')).toEqual([]);
  });
});
