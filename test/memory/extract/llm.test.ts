import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { createAnthropic } from '../../../src/llm/client.js';
import { extractWithModel, type ModelExtractOptions } from '../../../src/memory/extract/llm.js';
import type { ExtractInput, ExtractMessage, ExtractResult } from '../../../src/memory/extract/types.js';
import {
  apiError,
  fakeEstimate,
  overloaded,
  promptTooLong,
  reply,
  startFakeAnthropic,
  toolUse,
  type FakeAnthropic,
  type FakeStep,
  type RecordedRequest,
} from '../../fakes/anthropic.js';

const KEY = 'sk-test-fake-key-0123456789abcdef';
const MARKER: ExtractResult = {
  candidates: [{ content: 'heuristic marker', type: 'note', scope: 'project', stable: true, importance: 0.1, messageIds: [] }],
  extractor: 'heuristic',
};

let fake: FakeAnthropic | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

function memoryLog(): { log: ModelExtractOptions['log']; text: () => string } {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, cb) {
      lines.push(chunk.toString());
      cb();
    },
  });
  return { log: pino({ level: 'trace' }, stream), text: () => lines.join('') };
}

// A tool result that must never reach the model verbatim.
const BIG_OUTPUT = Array.from({ length: 400 }, (_, i) => `line ${i}: build output ${'#'.repeat(12)}`).join('\n');

const messages: ExtractMessage[] = [
  { id: 'u1', role: 'user', kind: 'text', origin: 'typed', text: 'Always use pnpm in this repository, never npm.', timestamp: '2025-03-01T10:00:00Z' },
  { id: 'a1', role: 'assistant', kind: 'thinking', origin: 'assistant', text: 'PRIVATE-THOUGHTS about the plan' },
  { id: 'a2', role: 'assistant', kind: 'tool_use', origin: 'assistant', text: 'Bash({"command":"pnpm build"})', toolName: 'Bash' },
  { id: 't1', role: 'user', kind: 'tool_result', origin: 'tool', text: BIG_OUTPUT, toolName: 'Bash' },
  { id: 'x1', role: 'user', kind: 'text', origin: 'system', text: 'INJECTED-META environment block', meta: true },
  { id: 'u2', role: 'user', kind: 'text', origin: 'typed', text: 'We switched from Jest to Vitest last week.', timestamp: '2025-03-01T10:05:00Z' },
  { id: 'a3', role: 'assistant', kind: 'text', origin: 'assistant', text: 'Noted: Vitest it is.', timestamp: '2025-03-01T10:05:30Z' },
];

const input = (over: Partial<ExtractInput> = {}): ExtractInput => ({ sessionId: 's1', project: '/repo', messages, maxMemories: 20, ...over });

const memories = [
  { content: 'Use pnpm, not npm, in this repository.', type: 'instruction', scope: 'project', stable: true, importance: 0.9, messageIds: ['u1'] },
  { content: 'Tests run with Vitest.', type: 'fact', scope: 'project', stable: true, importance: 0.7, messageIds: ['u2', 'a3'], replaces: ['Jest'] },
];

async function run(
  steps: FakeStep[],
  over: Partial<ModelExtractOptions> = {},
  inp: ExtractInput = input(),
): Promise<{ result: ExtractResult; logText: string }> {
  fake = await startFakeAnthropic(steps);
  const { log, text: logText } = memoryLog();
  const client = createAnthropic({ apiKey: KEY, baseURL: fake.url, maxRetries: 2, timeoutMs: 5000 }, log);
  const result = await extractWithModel(inp, { client, model: 'claude-test', log, fallback: () => MARKER, ...over });
  return { result, logText: logText() };
}

const promptOf = (r: RecordedRequest | undefined): string => JSON.stringify(r?.body.messages ?? []);
const userText = (r: RecordedRequest): string => {
  const content = r.body.messages[0]?.content;
  return typeof content === 'string' ? content : '';
};

describe('extractWithModel', () => {
  it('reads memories from a streamed record_memories tool call', async () => {
    const usage = { input_tokens: 1000, output_tokens: 50, cache_read_input_tokens: 200, cache_creation_input_tokens: 10 };
    const { result } = await run([reply([toolUse('record_memories', { memories })], { usage })]);
    expect(result.extractor).toBe('model');
    expect(result.fallback).toBeUndefined();
    expect(result.tokens).toEqual({ input: 1210, output: 50 });
    expect(result.proposals).toEqual([
      { ...memories[0], at: '2025-03-01T10:00:00Z' },
      { ...memories[1], at: '2025-03-01T10:05:30Z' },
    ]);
    const req = fake!.requests[0]!;
    expect(fake!.requests).toHaveLength(1);
    expect(req.stream).toBe(true);
    expect(req.headers['x-api-key']).toBe(KEY);
    expect(req.body.model).toBe('claude-test');
    expect(req.body.tool_choice).toEqual({ type: 'tool', name: 'record_memories' });
    expect(req.body.tools?.[0]).toMatchObject({ name: 'record_memories' });
    expect(String(req.body.system)).toContain('replaces');
    const prompt = userText(req);
    expect(prompt).toContain('[u1] user: Always use pnpm');
    expect(prompt).toContain('[a2] assistant called tool: Bash(');
    expect(prompt).not.toContain('PRIVATE-THOUGHTS');
    expect(prompt).not.toContain('INJECTED-META');
  });

  it('trims tool output before it reaches the model', async () => {
    await run([reply([toolUse('record_memories', { memories: [] })])]);
    const prompt = userText(fake!.requests[0]!);
    expect(BIG_OUTPUT.length).toBeGreaterThan(10_000);
    expect(prompt).not.toContain(BIG_OUTPUT);
    expect(prompt).not.toContain('line 200: build output');
    expect(prompt).toMatch(/\[t1\] tool result of Bash: line 0: build output .*\[… \d+ chars of tool output trimmed\]/);
    expect(prompt.length).toBeLessThan(2500);
  });

  it('an empty memory list is a valid answer, not a failure', async () => {
    const { result } = await run([reply([toolUse('record_memories', { memories: [] })])]);
    expect(result).toMatchObject({ extractor: 'model', candidates: [] });
    expect(result.fallback).toBeUndefined();
  });

  it('accepts JSON in a fenced text block', async () => {
    const answer = `Here are the memories.\n\n\`\`\`json\n${JSON.stringify({ memories }, null, 2)}\n\`\`\`\n`;
    const { result } = await run([reply(answer)]);
    expect(result.extractor).toBe('model');
    expect(result.proposals.map((c) => c.content)).toEqual(memories.map((m) => m.content));
  });

  it('accepts JSON wrapped in prose, and a bare array', async () => {
    const { result } = await run([reply(`Sure! ${JSON.stringify({ memories })} Hope this helps.`)]);
    expect(result.proposals).toHaveLength(2);
    await fake!.close();
    const bare = await run([reply(`Found these: ${JSON.stringify(memories)}`)]);
    expect(bare.result.proposals).toHaveLength(2);
  });

  it('drops invalid memories one by one and normalises the rest', async () => {
    const raw = [
      { content: '', type: 'fact' },
      { nothing: true },
      'just a string',
      { content: 'Deploys go to fly.io.', type: 'deploy-target', scope: 'galaxy', stable: 'false', importance: 7, messageIds: ['u2', '[a3]', 'nope', 42] },
    ];
    const { result } = await run([reply([toolUse('record_memories', { memories: raw })])]);
    expect(result.extractor).toBe('model');
    expect(result.proposals).toEqual([
      { content: 'Deploys go to fly.io.', type: 'note', scope: 'project', stable: false, importance: 1, messageIds: ['u2', 'a3'], at: '2025-03-01T10:05:30Z' },
    ]);
  });

  it('falls back on an empty answer, with the reason and the tokens spent', async () => {
    const { result, logText } = await run([reply([], { usage: { input_tokens: 321, output_tokens: 1 } })]);
    expect(result.extractor).toBe('heuristic');
    expect(result.proposals).toEqual(MARKER.candidates);
    expect(result.fallback).toMatch(/^empty_answer/);
    expect(result.tokens).toEqual({ input: 321, output: 1 });
    expect(logText).toContain('model extraction failed; using the heuristic extractor');
  });

  it('falls back on invalid JSON', async () => {
    const { result } = await run([reply('{"memories": [{"content": "Use pnpm", "type": ')]);
    expect(result.extractor).toBe('heuristic');
    expect(result.fallback).toMatch(/^invalid_json/);
  });

  it('falls back when a non-empty answer has no valid memory', async () => {
    const { result } = await run([reply([toolUse('record_memories', { memories: [{ content: '' }, { type: 'fact' }] })])]);
    expect(result.extractor).toBe('heuristic');
    expect(result.fallback).toMatch(/^no_valid_memories/);
  });

  it('a 500 is retried by the SDK and then succeeds', async () => {
    const { result } = await run([apiError(500, 'internal'), reply([toolUse('record_memories', { memories })])]);
    expect(result.extractor).toBe('model');
    expect(result.proposals).toHaveLength(2);
    expect(fake!.requests).toHaveLength(2);
  });

  it('a 529 overloaded is retried; still overloaded after the retries falls back', async () => {
    const first = await run([overloaded(), reply([toolUse('record_memories', { memories })])]);
    expect(first.result.extractor).toBe('model');
    expect(fake!.requests).toHaveLength(2);
    await fake!.close();
    const second = await run([overloaded(), overloaded(), overloaded()]);
    expect(fake!.requests).toHaveLength(3);
    expect(second.result).toMatchObject({ extractor: 'heuristic', tokens: { input: 0, output: 0 } });
    expect(second.result.fallback).toMatch(/^overloaded: 529/);
    expect(second.logText).toContain('"status":529');
  });

  it('a 400 is not retried and falls back', async () => {
    const { result, logText } = await run([apiError(400, 'max_tokens: 999999 > 64000, which is the maximum allowed')]);
    expect(fake!.requests).toHaveLength(1);
    expect(result.extractor).toBe('heuristic');
    expect(result.fallback).toMatch(/^bad_request: 400 max_tokens/);
    expect(logText).toContain('"code":"bad_request"');
  });

  it('never logs the API key or the transcript', async () => {
    const ok = await run([reply([toolUse('record_memories', { memories })])]);
    await fake!.close();
    const bad = await run([apiError(400, 'bad'), reply('unused')]);
    await fake!.close();
    const junk = await run([reply('no json here at all')]);
    for (const logText of [ok.logText, bad.logText, junk.logText]) {
      expect(logText).not.toContain(KEY);
      expect(logText).not.toContain('Always use pnpm');
      expect(logText).not.toContain('build output');
    }
    expect(junk.logText).toContain('no_json');
  });

  it('does not call the model for a transcript with nothing to read', async () => {
    const { result } = await run([], {}, input({ messages: [messages[1]!, messages[4]!] }));
    expect(result).toEqual({ candidates: [], extractor: 'model', tokens: { input: 0, output: 0 } });
    expect(fake!.requests).toHaveLength(0);
  });

  it('a timeout falls back with reason timeout', async () => {
    fake = await startFakeAnthropic([reply('late', { delayMs: 3000 })]);
    const { log } = memoryLog();
    const client = createAnthropic({ apiKey: KEY, baseURL: fake.url, maxRetries: 0, timeoutMs: 200 });
    const result = await extractWithModel(input(), { client, model: 'm', log, fallback: () => MARKER });
    expect(result.fallback).toMatch(/^timeout/);
  });
});

describe('chunking', () => {
  // 80 messages of ~300 chars: ~6,000 tokens, against a 4,000-token window.
  const long: ExtractMessage[] = Array.from({ length: 80 }, (_, i) => ({
    id: `m${i}`,
    role: i % 2 === 0 ? 'user' : 'assistant',
    kind: 'text',
    origin: i % 2 === 0 ? 'typed' : 'assistant',
    text: `Message ${i}: ${'we discussed the build pipeline and the "deploy" step; '.repeat(5)}`,
    timestamp: `2025-03-01T10:${String(i % 60).padStart(2, '0')}:00Z`,
  }));

  /** Cites every message id it sees; one memory repeats in every chunk. */
  const echo: FakeStep = (req) => {
    const ids = [...userText(req).matchAll(/^\[(m\d+)\]/gm)].map((m) => m[1]!);
    const mems = ids.map((id) => ({
      content: `Fact from ${id}.`,
      type: 'fact',
      scope: 'project',
      stable: true,
      importance: Number(id.slice(1)) / 100,
      messageIds: [id],
    }));
    mems.push({
      content: 'The project deploys with  the "deploy" step!',
      type: 'fact',
      scope: 'project',
      stable: true,
      importance: 0.95,
      messageIds: [ids[0]!],
    });
    return reply([toolUse('record_memories', { memories: mems })]);
  };

  it('splits a long transcript into requests within the window, then merges and caps', async () => {
    const steps = Array.from({ length: 20 }, () => echo);
    const { result } = await run(steps, { contextWindow: 4000, maxOutputTokens: 500 }, input({ messages: long, maxMemories: 5 }));
    const reqs = fake!.requests;
    expect(reqs.length).toBeGreaterThanOrEqual(3);
    for (const r of reqs) {
      expect(fakeEstimate(r.body) + (r.body.max_tokens ?? 0)).toBeLessThanOrEqual(4000);
      expect(userText(r)).toMatch(/part \d+ of \d+/);
    }
    // Every message went to exactly one request, in order.
    const seen = reqs.flatMap((r) => [...userText(r).matchAll(/^\[(m\d+)\]/gm)].map((m) => m[1]));
    expect(seen).toEqual(long.map((m) => m.id));

    expect(result.extractor).toBe('model');
    expect(result.proposals).toHaveLength(5);
    const [top, ...rest] = result.proposals;
    expect(top?.content).toBe('The project deploys with  the "deploy" step!'.replace(/\s+/g, ' '));
    expect(top?.messageIds.length).toBe(reqs.length);
    expect(rest.map((c) => c.content)).toEqual(['Fact from m79.', 'Fact from m78.', 'Fact from m77.', 'Fact from m76.']);
    const sum = reqs.reduce((n, r) => n + fakeEstimate(r.body), 0);
    expect(result.tokens?.input).toBe(sum);
    expect(result.tokens?.output).toBeGreaterThan(0);
  });

  it('one failing chunk falls back for the whole transcript, keeping the tokens spent', async () => {
    const { result } = await run([echo, apiError(400, 'bad chunk')], { contextWindow: 4000, maxOutputTokens: 500 }, input({ messages: long }));
    expect(fake!.requests).toHaveLength(2);
    expect(result.extractor).toBe('heuristic');
    expect(result.tokens?.input).toBe(fakeEstimate(fake!.requests[0]!.body));
  });

  it('a chunk the API finds too long is split again', async () => {
    const steps: FakeStep[] = [promptTooLong(9000, 4000), echo, echo, echo, echo, echo];
    const { result } = await run(steps, { contextWindow: 200_000 }, input({ messages: long.slice(0, 20) }));
    expect(fake!.requests.length).toBeGreaterThanOrEqual(3);
    expect(result.extractor).toBe('model');
    expect(result.proposals.some((c) => c.content === 'Fact from m19.')).toBe(true);
    expect(promptOf(fake!.requests[1])).not.toContain('[m19]');
  });
});
