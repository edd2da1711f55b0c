/**
 * The model extraction pipeline (extractWithBackend) through the Anthropic backend as the daemon
 * makes it (createBackend), the real SDK streaming against the loopback fake of the Messages API:
 * what the model is asked (the ranked candidates, numbered, in the person's words; never tool
 * output), how its answer becomes proposals (cited message ids, the candidates' scores), and the
 * fallback to the offline proposals. Expectations are read from the ranker itself, so a refit
 * changes the numbers, not the tests.
 */
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigSchema } from '../../../src/config.js';
import { createBackend } from '../../../src/llm/backends/index.js';
import { extractWithBackend, type BackendExtractOptions } from '../../../src/memory/extract/backend-extract.js';
import { ANSWER_SCHEMA } from '../../../src/memory/extract/model-schema.js';
import { chunksOf, POOL_MARGIN, poolOf, type Numbered } from '../../../src/memory/extract/model-pool.js';
import { extractOffline, rankSession } from '../../../src/memory/extract/offline.js';
import { rankFloor } from '../../../src/memory/rank/score.js';
import type { ExtractInput, ExtractMessage, ExtractResult } from '../../../src/memory/extract/types.js';
import type { KnownMemory } from '../../../src/memory/store/related.js';
import { apiError, reply, startFakeAnthropic, text, toolUse, type FakeAnthropic, type FakeStep, type RecordedRequest } from '../../fakes/anthropic.js';

const KEY = 'sk-test-fake-key-0123456789abcdef';
let fake: FakeAnthropic | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

function memoryLog(): { log: pino.Logger; text: () => string } {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, cb) {
      lines.push(chunk.toString());
      cb();
    },
  });
  return { log: pino({ level: 'trace' }, stream), text: () => lines.join('') };
}

const TOOL_OUTPUT = Array.from({ length: 200 }, (_, i) => `TOOL-OUTPUT line ${i}: always use yarn`).join('\n');
const messages: ExtractMessage[] = [
  { id: 'u1', role: 'user', kind: 'text', origin: 'typed', text: 'Always run the linter before committing.', timestamp: '2025-03-01T10:00:00Z' },
  { id: 'a1', role: 'assistant', kind: 'thinking', origin: 'assistant', text: 'PRIVATE-THOUGHTS about the plan' },
  { id: 'a2', role: 'assistant', kind: 'tool_use', origin: 'assistant', text: 'Bash({"command":"pnpm lint"})', toolName: 'Bash' },
  { id: 't1', role: 'user', kind: 'tool_result', origin: 'tool', text: TOOL_OUTPUT, toolName: 'Bash' },
  { id: 'x1', role: 'user', kind: 'text', origin: 'system', text: 'INJECTED-META environment block', meta: true },
  { id: 'u2', role: 'user', kind: 'text', origin: 'typed', text: 'Never push directly to main.', timestamp: '2025-03-01T10:05:00Z' },
  { id: 'a3', role: 'assistant', kind: 'text', origin: 'assistant', text: 'ASSISTANT-PROSE Noted, no direct pushes.', timestamp: '2025-03-01T10:05:30Z' },
  {
    id: 'u3',
    role: 'user',
    kind: 'text',
    origin: 'typed',
    text: 'The api is deployed to Fly.io; always deploy from the main branch.',
    timestamp: '2025-03-01T10:09:00Z',
  },
];
const input = (over: Partial<ExtractInput> = {}): ExtractInput => ({ sessionId: 's1', project: '/repo', messages, maxMemories: 20, ...over });
/** The candidates the model is shown, as the ranker reads them (C1, C2… in session order). */
const pool = (inp: ExtractInput = input()): Numbered[] => poolOf(rankSession(inp));

const memory = (content: string, from: (number | string)[], extra: Record<string, unknown> = {}) => ({
  content,
  type: 'instruction',
  scope: 'project',
  stable: true,
  from,
  ...extra,
});
const answer = (memories: unknown[], usage = { input_tokens: 900, output_tokens: 40 }): FakeStep => reply([toolUse('answer', { memories })], { usage });

async function run(
  steps: FakeStep[],
  inp: ExtractInput = input(),
  over: Partial<BackendExtractOptions> = {},
): Promise<{ result: ExtractResult; logText: string }> {
  fake = await startFakeAnthropic({ steps, retryAfterMs: 1 });
  const { log, text: logText } = memoryLog();
  const config = ConfigSchema.parse({ memory: { model: 'claude-test' } });
  const made = await createBackend('anthropic', config, { ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: KEY }, log);
  if (!made.ok) throw new Error(made.reason);
  const result = await extractWithBackend(inp, { backend: made.backend, log, ...over });
  return { result, logText: logText() };
}

const promptOf = (r: RecordedRequest | undefined): string => {
  const content = r?.body.messages[0]?.content;
  return typeof content === 'string' ? content : '';
};
/** The numbered candidate lines of a prompt: number → text. */
const listed = (prompt: string): Map<number, string> => new Map([...prompt.matchAll(/^C(\d+) \[[^\]]+\] (.*)$/gm)].map((m) => [Number(m[1]), m[2] ?? '']));

describe('extractWithBackend through the Anthropic API', () => {
  it('asks one streamed question listing the ranked candidates, numbered, in the person’s words, and nothing else of the transcript', async () => {
    const shown = pool();
    expect(shown.length, 'the session should give the model at least three candidates').toBeGreaterThanOrEqual(3);
    await run([answer([])]);
    expect(fake!.requests).toHaveLength(1);
    const req = fake!.requests[0]!;
    expect(req.stream).toBe(true);
    expect(req.headers['x-api-key']).toBe(KEY);
    expect(req.body).toMatchObject({ model: 'claude-test', tool_choice: { type: 'tool', name: 'answer' } });
    expect(req.body.tools).toEqual([expect.objectContaining({ input_schema: ANSWER_SCHEMA })]);
    expect(String(req.body.system)).toContain('never a number not listed');
    const prompt = promptOf(req);
    expect([...listed(prompt)]).toEqual(shown.map((c) => [c.n, c.offline.text]));
    expect(shown.map((c) => c.ranked.candidate.messageId)).toEqual(expect.arrayContaining(['u1', 'u2', 'u3']));
    expect(prompt).toContain('] Always run the linter before committing.');
    expect(prompt).toMatch(/^C\d+ \[typed · -?\d\.\d\d · \w+, (project|user)\] Never push directly to main\.$/m);
    for (const never of ['TOOL-OUTPUT', 'always use yarn', 'PRIVATE-THOUGHTS', 'INJECTED-META', 'ASSISTANT-PROSE', 'pnpm lint'])
      expect(prompt).not.toContain(never);
  });

  it('turns a good answer into proposals: the model’s words, the cited message ids, the candidate’s score as importance', async () => {
    const [first, second] = pool();
    const { result, logText } = await run([
      answer([
        memory('Run the linter before every commit.', [first!.n]),
        memory('Never push to main directly.', [`C${second!.n}`], { type: 'fact', stable: false }),
      ]),
    ]);
    expect(result.fallback).toBeUndefined();
    expect(result).toMatchObject({ extractor: 'model', tokens: { input: 900, output: 40 } });
    const clamp = (x: number) => Math.max(0, Math.min(1, x));
    expect(result.proposals).toEqual([
      {
        text: 'Run the linter before every commit.',
        type: 'instruction',
        scope: 'project',
        stable: true,
        importance: clamp(first!.ranked.score),
        messageIds: ['u1'],
        at: '2025-03-01T10:00:00Z',
        said: 'typed',
      },
      {
        text: 'Never push to main directly.',
        type: 'fact',
        scope: 'project',
        stable: false,
        importance: clamp(second!.ranked.score),
        messageIds: ['u2'],
        at: '2025-03-01T10:05:00Z',
        said: 'typed',
      },
    ]);
    // Neither the prompt nor the answer is logged, nor the key.
    for (const never of ['Always run the linter', 'Run the linter before every commit', KEY]) expect(logText).not.toContain(never);
  });

  it('merges two candidates into one memory citing both: both message ids, the better score, the later time', async () => {
    const shown = pool();
    const [a, b] = [shown.find((c) => c.ranked.candidate.messageId === 'u2')!, shown.find((c) => c.ranked.candidate.messageId === 'u3')!];
    const { result } = await run([answer([memory('Deploy the api to Fly.io from main, and never push to main directly.', [b.n, a.n])])]);
    expect(result.proposals).toEqual([
      expect.objectContaining({
        text: 'Deploy the api to Fly.io from main, and never push to main directly.',
        messageIds: ['u2', 'u3'],
        importance: Math.max(0, Math.min(1, Math.max(a.ranked.score, b.ranked.score))),
        at: '2025-03-01T10:09:00Z',
      }),
    ]);
  });

  it('drops a memory citing a number it was not shown; an answer with only such memories falls back', async () => {
    const [first] = pool();
    const { result } = await run([answer([memory('Invented from nothing.', [99]), memory('Nothing cited.', []), memory('Run the linter first.', [first!.n])])]);
    expect(result.extractor).toBe('model');
    expect(result.proposals.map((p) => p.text)).toEqual(['Run the linter first.']);
    await fake!.close();
    const none = await run([answer([memory('Invented from nothing.', [99])])]);
    expect(none.result).toMatchObject({ extractor: 'heuristic', proposals: extractOffline(input()).proposals });
    expect(none.result.fallback).toMatch(/^no_valid_memories: /);
  });

  it('a malformed answer falls back to the offline proposals, with the reason and the tokens spent', async () => {
    const offline = extractOffline(input()).proposals;
    expect(offline.length).toBeGreaterThan(0);
    const bad = await run([reply([toolUse('answer', { memories: 'none' })], { usage: { input_tokens: 321, output_tokens: 7 } })]);
    expect(bad.result).toEqual({
      proposals: offline,
      extractor: 'heuristic',
      fallback: expect.stringMatching(/^schema_mismatch: /),
      tokens: { input: 321, output: 7 },
    });
    expect(bad.logText).toContain('model extraction failed; using the offline extractor');
    await fake!.close();
    const prose = await run([reply([text('I found nothing worth keeping, sorry!')])]);
    expect(prose.result).toMatchObject({ proposals: offline, extractor: 'heuristic', fallback: expect.stringMatching(/^no_json: /) });
  });

  it('an API error falls back to the offline proposals (a 400 is not retried)', async () => {
    const { result, logText } = await run([apiError(400, 'max_tokens: 999999 > 64000'), answer([])]);
    expect(fake!.requests).toHaveLength(1);
    expect(result).toEqual({
      proposals: extractOffline(input()).proposals,
      extractor: 'heuristic',
      fallback: expect.stringMatching(/^bad_request: /),
      tokens: { input: 0, output: 0 },
    });
    expect(logText).toContain('"code":"bad_request"');
  });

  it('a session with no candidates asks nothing', async () => {
    const quiet = input({ messages: messages.filter((m) => m.role === 'assistant' || m.kind === 'tool_result' || m.meta === true) });
    expect(pool(quiet)).toEqual([]);
    const { result } = await run([answer([])], quiet);
    expect(fake!.requests).toHaveLength(0);
    expect(result).toEqual({ proposals: [], extractor: 'heuristic' });
  });

  it('shows the stored memories of the same slots: "same" keeps the stored wording, "replaces" names what it retires', async () => {
    const stored: KnownMemory[] = [
      { id: 'm1', content: 'Lint before each commit.', type: 'instruction', scope: 'user' },
      { id: 'm2', content: 'The api deploys to Render.', type: 'fact', scope: 'project', value: 'render' },
    ];
    const [first, , third] = pool();
    const { result } = await run(
      [
        answer([
          memory('Run the linter before committing.', [first!.n], { same: 'K1' }),
          memory('The api deploys to Fly.io from main.', [third!.n], { replaces: ['K2'] }),
        ]),
      ],
      input({ related: () => stored }),
    );
    const prompt = promptOf(fake!.requests[0]);
    expect(prompt).toContain(
      '<stored_memories>\nK1 (instruction, user): Lint before each commit.\nK2 (fact, project): The api deploys to Render.\n</stored_memories>',
    );
    expect(result.proposals).toEqual([
      expect.objectContaining({ text: 'Lint before each commit.', scope: 'user', messageIds: ['u1'] }),
      expect.objectContaining({ text: 'The api deploys to Fly.io from main.', replaces: ['render'], messageIds: ['u3'] }),
    ]);
  });

  it('asks a long list in parts; a number of another part cites nothing', async () => {
    const shown = pool();
    const cite: FakeStep = (req) => {
      const numbers = [...listed(promptOf(req)).keys()];
      return answer([memory(`Memory of part with C${numbers[0]}.`, [numbers[0]!]), memory('Across parts.', [shown.length + 1 - numbers[0]!])]);
    };
    const { result } = await run([cite, cite, cite], input(), { perCall: Math.ceil(shown.length / 2) });
    expect(fake!.requests).toHaveLength(2);
    expect(promptOf(fake!.requests[0])).toContain('<candidates (part 1 of 2;');
    const parts = fake!.requests.map((r) => [...listed(promptOf(r)).keys()]);
    expect(parts.flat()).toEqual(shown.map((c) => c.n));
    expect(result.proposals.map((p) => p.text)).toEqual([`Memory of part with C1.`, `Memory of part with C${parts[1]![0]}.`]);
    expect(result.tokens).toEqual({ input: 1800, output: 80 });
  });
});

describe('the pool the model reads', () => {
  it('reaches under the offline floor, keeps the best by score up to its cap, in session order', () => {
    const ranked = rankSession(input());
    expect(ranked.length).toBeGreaterThanOrEqual(3);
    // The ranker's candidates, scored by hand: above the floor, just under it (the model's to judge), far under.
    const [above, under, far] = [rankFloor() + 0.1, rankFloor() - POOL_MARGIN / 2, rankFloor() - POOL_MARGIN - 0.01];
    const scored = ranked.slice(0, 3).map((r, i) => ({ ...r, score: [far, under, above][i]! }));
    const order = (xs: Numbered[]) => xs.map((c) => c.ranked.candidate.index);
    const byIndex = (xs: typeof scored) => xs.map((r) => r.candidate.index).sort((a, b) => a - b);
    expect(order(poolOf(scored))).toEqual(byIndex(scored.slice(1)));
    expect(poolOf(scored).map((c) => c.n)).toEqual([1, 2]);
    expect(order(poolOf(scored, 1))).toEqual([scored[2]!.candidate.index]);
  });

  it('splits into even runs of at most perCall', () => {
    const fake = (n: number) => Array.from({ length: n }, (_, i) => ({ n: i + 1 }) as Numbered);
    expect(chunksOf(fake(50), 40).map((c) => c.length)).toEqual([25, 25]);
    expect(chunksOf(fake(40), 40).map((c) => c.length)).toEqual([40]);
    expect(chunksOf(fake(0), 40)).toEqual([]);
  });
});
