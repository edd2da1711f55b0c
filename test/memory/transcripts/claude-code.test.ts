import { statSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { createClaudeCodeParser } from '../../../src/memory/transcripts/claude-code.js';
import { type ParseResult, readTranscript, type TranscriptMessage } from '../../../src/memory/transcripts/index.js';
import { TOOL_RESULT_MAX, TOOL_USE_MAX } from '../../../src/memory/transcripts/render.js';
import { fixture } from './helpers.js';

const SESSION = '5f0e8d2a-3b7c-4e19-9a61-2c4d8b7e1f03';
const file = fixture('claude-code.jsonl');
let result: ParseResult;
const byId = (id: string): TranscriptMessage | undefined => result.messages.find((m) => m.id === id);
const uuid = (group: string, n: number): string => `${group}0000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

beforeAll(async () => {
  result = await readTranscript(file);
});

describe('Claude Code transcripts', () => {
  it('reports the session and consumes every complete line', () => {
    expect(result).toMatchObject({
      format: 'claude-code',
      sessionId: SESSION,
      cwd: '/home/alice/projects/billing',
      linesRead: 20,
      endOffset: statSync(file).size,
    });
  });

  it('counts the truncated JSON line and the non-object line as malformed, and goes on', () => {
    expect(result.malformedLines).toBe(2);
    expect(byId(uuid('b', 1))?.text).toMatch(/^Subagent/);
  });

  it('keeps user text with the line uuid, timestamp, session and cwd', () => {
    expect(byId(uuid('a', 1))).toEqual({
      id: uuid('a', 1),
      role: 'user',
      kind: 'text',
      origin: 'typed',
      text: 'The invoice rounding test is flaky. We always use pnpm here, never npm.',
      timestamp: '2025-09-14T09:00:00.000Z',
      sessionId: SESSION,
      cwd: '/home/alice/projects/billing',
    });
  });

  it('reads thinking, text and tool_use blocks of assistant lines', () => {
    expect(byId(uuid('a', 3))).toMatchObject({ role: 'assistant', kind: 'thinking', text: 'Rounding probably depends on float addition order.' });
    expect(byId(uuid('a', 4))).toMatchObject({ role: 'assistant', kind: 'text', text: 'Let me run the test suite first.' });
    expect(byId(uuid('a', 5))).toMatchObject({
      role: 'assistant',
      kind: 'tool_use',
      toolName: 'Bash',
      toolUseId: 'toolu_01Bash',
      text: 'Bash({"command":"pnpm test -- invoice","description":"Run the invoice tests"})',
      timestamp: '2025-09-14T09:00:04.000Z',
    });
  });

  it('reads tool results in string and block form, naming the tool and flagging errors', () => {
    const ok = byId(uuid('a', 6));
    expect(ok).toMatchObject({ role: 'user', kind: 'tool_result', toolName: 'Bash', toolUseId: 'toolu_01Bash' });
    expect(ok?.text).toContain('expected 10.01 received 10.009999');
    expect(ok?.isError).toBeUndefined();
    expect(byId(uuid('a', 8))).toMatchObject({ kind: 'tool_result', toolName: 'Read', text: 'File does not exist.', isError: true });
  });

  it('flags meta, sidechain and compaction lines', () => {
    expect(byId(uuid('a', 2))).toMatchObject({ kind: 'text', meta: true });
    expect(byId(uuid('b', 1))).toMatchObject({ role: 'assistant', sidechain: true });
    expect(byId(uuid('c', 1))).toMatchObject({ role: 'system', kind: 'boundary', text: 'Conversation compacted', timestamp: '2025-09-14T09:30:00.000Z' });
    expect(byId(uuid('c', 2))).toMatchObject({ role: 'user', kind: 'summary', compactSummary: true });
    const plain = result.messages.filter((m) => m.meta !== true && m.sidechain !== true && m.compactSummary !== true);
    expect(plain.every((m) => m.meta === undefined && m.sidechain === undefined)).toBe(true);
  });

  it('keeps summary lines as session titles, named by their offset', () => {
    expect(result.messages[0]).toEqual({ id: '@0', role: 'system', kind: 'summary', origin: 'system', text: 'Fix flaky invoice rounding test' });
  });

  it('gives later blocks of a line their own id and skips images and redacted thinking', () => {
    expect(byId(uuid('c', 4))).toBeUndefined();
    expect(byId(`${uuid('c', 4)}:1`)).toMatchObject({ kind: 'text', text: 'Here is the screenshot of the wrong total.' });
    expect(byId(`${uuid('c', 5)}:1`)).toMatchObject({ kind: 'text', text: 'The total uses integer cents now.' });
    expect(byId(`${uuid('c', 5)}:2`)).toMatchObject({ kind: 'tool_use', toolName: 'Edit' });
    expect(new Set(result.messages.map((m) => m.id)).size).toBe(result.messages.length);
  });

  it('skips snapshots, unknown types and system lines other than compact boundaries', () => {
    expect(result.messages.map((m) => m.kind)).toEqual([
      'summary',
      'text',
      'text',
      'thinking',
      'text',
      'tool_use',
      'tool_result',
      'tool_use',
      'tool_result',
      'text',
      'boundary',
      'summary',
      'text',
      'text',
      'tool_use',
    ]);
    expect(byId(uuid('c', 3))).toBeUndefined();
    expect(byId('a0000000-0000-4000-8000-0000000000aa')).toBeUndefined();
  });

  it('clips tool_use renderings and huge tool results', () => {
    const parser = createClaudeCodeParser();
    const [use] = parser.parse(
      {
        type: 'assistant',
        uuid: 'u',
        message: { role: 'assistant', content: [{ type: 'tool_use', id: 't', name: 'Write', input: { content: 'y'.repeat(5000) } }] },
      },
      '@0',
    );
    expect(use?.text.length).toBe(TOOL_USE_MAX);
    expect(use?.text.startsWith('Write({"content":"yyy')).toBe(true);
    const [out] = parser.parse(
      { type: 'user', uuid: 'v', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't', content: 'z'.repeat(100_000) }] } },
      '@1',
    );
    expect(out?.text.length).toBeLessThan(TOOL_RESULT_MAX + 40);
    expect(out?.text).toMatch(/\[67232 more chars\]$/);
  });

  it('tolerates fields of unexpected types', () => {
    const parser = createClaudeCodeParser();
    expect(parser.parse({ type: 'user', uuid: 7, timestamp: 'not a date', isMeta: 'yes', message: { content: 'hi' } }, '@9')).toEqual([
      { id: '@9', role: 'user', kind: 'text', origin: 'typed', text: 'hi' },
    ]);
    expect(parser.parse({ type: 'assistant', message: 'not an object' }, '@1')).toEqual([]);
    expect(parser.parse({ type: 'assistant', message: { content: [null, 3, { type: 'text' }] } }, '@2')).toEqual([]);
  });
});
