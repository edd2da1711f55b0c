import { appendFileSync, copyFileSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseTranscript, readTranscript } from '../../../src/memory/transcripts/index.js';
import { type Line, readLines } from '../../../src/memory/transcripts/lines.js';
import { fixture, jsonl, tempDir } from './helpers.js';

const dir = tempDir('offsets');
let n = 0;
function file(text: string | Buffer): string {
  const path = join(dir, `t${n++}.jsonl`);
  writeFileSync(path, text);
  return path;
}

const SESSION = '5f0e8d2a-3b7c-4e19-9a61-2c4d8b7e1f03';
const user = (uuid: string, text: string) => ({
  type: 'user',
  uuid,
  sessionId: SESSION,
  timestamp: '2025-09-14T09:00:00Z',
  message: { role: 'user', content: text },
});

async function collect(path: string, start = 0, max?: number): Promise<Line[]> {
  const lines: Line[] = [];
  for await (const line of readLines(path, start, max)) lines.push(line);
  return lines;
}

describe('byte-exact lines', () => {
  it('counts bytes, not characters, and strips \\r\\n', async () => {
    const text = 'añb 日本 🎉\r\nsecond\n\nlast-without-newline';
    const lines = await collect(file(text));
    expect(lines.map((l) => l.text)).toEqual(['añb 日本 🎉', 'second', '']);
    expect(lines[0]?.end).toBe(Buffer.byteLength('añb 日本 🎉\r\n'));
    expect(lines.at(-1)?.end).toBe(Buffer.byteLength('añb 日本 🎉\r\nsecond\n\n'));
  });

  it('does not end a line at a lone \\r', async () => {
    expect((await collect(file('a\rb\nc\n'))).map((l) => l.text)).toEqual(['a\rb', 'c']);
  });

  it('joins lines across read chunks (1 MiB) intact', async () => {
    const long = 'x'.repeat(2_500_000);
    const lines = await collect(file(`${long}\nshort\n`));
    expect(lines.map((l) => l.text.length)).toEqual([2_500_000, 5]);
    expect(lines[1]?.start).toBe(2_500_001);
  });

  it('skips an over-long line without buffering it and goes on', async () => {
    const lines = await collect(file(`ok\n${'y'.repeat(3_000_000)}\nafter\n`), 0, 1_000_000);
    expect(lines.map((l) => [l.text, l.oversized])).toEqual([
      ['ok', false],
      ['', true],
      ['after', false],
    ]);
    expect(lines[2]?.start).toBe(3 + 3_000_001);
  });
});

describe('incremental parsing', () => {
  it('resumes at endOffset and processes only appended lines', async () => {
    const path = join(dir, 'session.jsonl');
    copyFileSync(fixture('claude-code.jsonl'), path);
    const first = await readTranscript(path);
    expect(first.endOffset).toBe(statSync(path).size);

    appendFileSync(path, jsonl(user('n1', 'first new'), user('n2', 'second new')));
    const second = await readTranscript(path, { offset: first.endOffset });
    expect(second.messages.map((m) => [m.id, m.text])).toEqual([
      ['n1', 'first new'],
      ['n2', 'second new'],
    ]);
    expect(second).toMatchObject({ linesRead: 2, malformedLines: 0, endOffset: statSync(path).size, sessionId: SESSION });

    const third = await readTranscript(path, { offset: second.endOffset });
    expect(third).toMatchObject({ messages: [], linesRead: 0, endOffset: second.endOffset });
  });

  it('picks up a partial last line once it is completed', async () => {
    const done = jsonl(user('p1', 'complete'));
    const partial = JSON.stringify(user('p2', 'still typing'));
    const path = file(done + partial.slice(0, 40));
    const first = await readTranscript(path);
    expect(first.messages.map((m) => m.id)).toEqual(['p1']);
    expect(first.endOffset).toBe(Buffer.byteLength(done));
    expect(first.malformedLines).toBe(0);

    appendFileSync(path, `${partial.slice(40)}\n`);
    const second = await readTranscript(path, { offset: first.endOffset });
    expect(second.messages.map((m) => [m.id, m.text])).toEqual([['p2', 'still typing']]);
    expect(second.endOffset).toBe(statSync(path).size);
  });

  it('resumes a Codex rollout knowing its session from the first line', async () => {
    const path = join(dir, 'rollout.jsonl');
    const lines = readFileSync(fixture('codex.jsonl'), 'utf8').split('\n');
    writeFileSync(path, `${lines.slice(0, 4).join('\n')}\n`);
    const first = await readTranscript(path);
    appendFileSync(path, `${lines.slice(4, 9).join('\n')}\n`);
    const second = await readTranscript(path, { offset: first.endOffset });
    expect(second.sessionId).toBe('0199a1b2-7c3d-7e4f-8a5b-6c7d8e9f0a1b');
    expect(second.messages.map((m) => m.kind)).toEqual(['thinking', 'tool_use', 'tool_result']);
    expect(second.messages.every((m) => m.sessionId === '0199a1b2-7c3d-7e4f-8a5b-6c7d8e9f0a1b')).toBe(true);
  });

  it('offsets of a JSONL with multi-byte text and CRLF line ends are exact', async () => {
    const a = jsonl(user('u1', 'café ☕')).replace('\n', '\r\n');
    const b = jsonl(user('u2', '日本語'));
    const path = file(a + b);
    const all = await readTranscript(path);
    expect(all.messages.map((m) => m.text)).toEqual(['café ☕', '日本語']);
    expect(all.endOffset).toBe(Buffer.byteLength(a + b));
    const tail = await readTranscript(path, { offset: Buffer.byteLength(a) });
    expect(tail.messages.map((m) => m.text)).toEqual(['日本語']);
  });

  it('a consumer that stops mid-line resumes at that line', async () => {
    const two = {
      type: 'assistant',
      uuid: 'm',
      message: {
        role: 'assistant',
        content: [
          { type: 'text', text: 'one' },
          { type: 'text', text: 'two' },
        ],
      },
    };
    const head = jsonl(user('u0', 'zero'));
    const path = file(head + jsonl(two));
    const parse = await parseTranscript(path);
    const seen: string[] = [];
    for await (const message of parse.messages) {
      seen.push(message.id);
      if (message.id === 'm') break;
    }
    expect(seen).toEqual(['u0', 'm']);
    expect(parse.stats().endOffset).toBe(Buffer.byteLength(head));
  });

  it('consumes blank and malformed lines so they are not read again', async () => {
    const path = file(`\n   \n{broken\n${jsonl(user('u', 'ok'))}`);
    const result = await readTranscript(path, { format: 'claude-code' });
    expect(result).toMatchObject({ linesRead: 4, malformedLines: 1, endOffset: statSync(path).size });
  });
});

describe('bad offsets and files', () => {
  const path = file(jsonl(user('a', 'x'), user('b', 'y')));

  it('rejects an offset past the end (a truncated or replaced transcript)', async () => {
    await expect(parseTranscript(path, { offset: 10_000 })).rejects.toMatchObject({
      code: 'bad_request',
      message: expect.stringMatching(/past the end.*again from 0/),
    });
  });

  it('rejects an offset inside a line', async () => {
    await expect(parseTranscript(path, { offset: 5 })).rejects.toMatchObject({
      code: 'bad_request',
      message: expect.stringMatching(/not the start of a line/),
    });
  });

  it('rejects a negative or fractional offset', async () => {
    await expect(parseTranscript(path, { offset: -1 })).rejects.toMatchObject({ code: 'bad_request' });
    await expect(parseTranscript(path, { offset: 1.5 })).rejects.toMatchObject({ code: 'bad_request' });
  });

  it('reports a missing transcript as not_found', async () => {
    await expect(parseTranscript(join(dir, 'nope.jsonl'))).rejects.toMatchObject({ code: 'not_found' });
  });
});
