/**
 * extractWithBackend through the real `claude -p` (claude-cli backend) against the fake Messages
 * server: the same pipeline as through the API (model-extract.test.ts). What the model is asked
 * (the ranked candidates, not the transcript), how its answer maps to proposals, and the fallback
 * to the offline proposals when the answer is unusable.
 */
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { createClaudeCliBackend } from '../../../src/llm/backends/claude-cli.js';
import { extractWithBackend } from '../../../src/memory/extract/backend-extract.js';
import { poolOf } from '../../../src/memory/extract/model-pool.js';
import { extractOffline, rankSession } from '../../../src/memory/extract/offline.js';
import type { ExtractInput, ExtractMessage } from '../../../src/memory/extract/types.js';
import type { KnownMemory } from '../../../src/memory/store/related.js';
import { reply, startFakeAnthropic, toolUse, type FakeAnthropic, type FakeStep } from '../../fakes/anthropic.js';
import { CLAUDE, claudeHome, type ClaudeHome } from '../../helpers/claude-cli.js';

let fake: FakeAnthropic | undefined;
let home: ClaudeHome | undefined;
afterEach(async () => {
  await fake?.close();
  home?.cleanup();
  fake = home = undefined;
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

const TOOL_OUTPUT = 'TOOL-OUTPUT-NEVER-SENT '.repeat(50);
const messages: ExtractMessage[] = [
  { id: 'u1', role: 'user', kind: 'text', origin: 'typed', text: 'Always use pnpm in this repository, never npm.', timestamp: '2025-03-01T10:00:00Z' },
  { id: 'a1', role: 'assistant', kind: 'text', origin: 'assistant', text: 'ASSISTANT-PROSE I will look at the build.' },
  { id: 't1', role: 'user', kind: 'tool_result', origin: 'tool', text: TOOL_OUTPUT, toolName: 'Bash' },
  {
    id: 'u2',
    role: 'user',
    kind: 'text',
    origin: 'typed',
    text: 'The api is deployed to Fly.io; always deploy from the main branch.',
    timestamp: '2025-03-01T10:05:00Z',
  },
];
const input = (over: Partial<ExtractInput> = {}): ExtractInput => ({ sessionId: 's1', project: '/repo', messages, maxMemories: 20, ...over });
const memory = (content: string, from: number[], extra: Record<string, unknown> = {}) => ({
  content,
  type: 'instruction',
  scope: 'project',
  stable: true,
  from,
  ...extra,
});
/** The number the model is shown for the (first) candidate of a message. */
const numberOf = (id: string): number => poolOf(rankSession(input())).find((c) => c.ranked.candidate.messageId === id)?.n ?? -1;

async function run(steps: FakeStep[], over: Partial<ExtractInput> = {}, opts: { perCall?: number } = {}) {
  fake = await startFakeAnthropic({ steps, defaultStep: reply('(no more scripted answers)') });
  home = claudeHome(fake.url);
  const { log, text } = memoryLog();
  const backend = createClaudeCliBackend({
    binary: CLAUDE,
    model: 'claude-haiku-4-5',
    maxUsdPerCall: 0.05,
    timeoutSeconds: 30,
    env: home.env,
    cwd: home.dir,
    log,
  });
  const result = await extractWithBackend(input(over), { backend, log, ...opts });
  return { result, logText: text() };
}

const sent = (i = 0): string => JSON.stringify(fake?.requests[i]?.body.messages ?? []);

describe('extractWithBackend (claude -p against the fake Messages API)', () => {
  it('asks once, with the person’s ranked statements and not the transcript; maps the answer to proposals', async () => {
    expect(numberOf('u1')).toBeGreaterThan(0);
    const { result, logText } = await run([
      reply([toolUse('StructuredOutput', { memories: [memory('Use pnpm, never npm, in this repository.', [numberOf('u1')])] })]),
    ]);
    expect(result.extractor).toBe('model');
    expect(result.fallback).toBeUndefined();
    const score = rankSession(input()).find((r) => r.candidate.messageId === 'u1')?.score ?? Number.NaN;
    expect(result.proposals).toEqual([
      {
        text: 'Use pnpm, never npm, in this repository.',
        type: 'instruction',
        scope: 'project',
        stable: true,
        importance: Math.max(0, Math.min(1, score)),
        messageIds: ['u1'],
        at: '2025-03-01T10:00:00Z',
        said: 'typed',
      },
    ]);
    expect(result.tokens?.input).toBeGreaterThan(0);
    expect(fake?.requests).toHaveLength(1);
    expect(sent()).toMatch(/C\d+ \[typed · [^\]]+\] Always use pnpm in this repository, never npm\./);
    expect(sent()).not.toContain('TOOL-OUTPUT-NEVER-SENT');
    expect(sent()).not.toContain('ASSISTANT-PROSE');
    // Neither the prompt nor the answer is logged.
    expect(logText).not.toContain('Always use pnpm');
    expect(logText).not.toContain('Use pnpm, never npm');
  });

  it('a stored memory the model says is the same comes back in its stored wording', async () => {
    const stored: KnownMemory = { id: 'm1', content: 'Use pnpm, not npm.', type: 'instruction', scope: 'project' };
    const { result } = await run([reply([toolUse('StructuredOutput', { memories: [memory('pnpm only.', [numberOf('u1')], { same: 'K1' })] })])], {
      related: () => [stored],
    });
    expect(sent()).toContain('K1 (instruction, project): Use pnpm, not npm.');
    expect(result.proposals.map((c) => c.text)).toEqual(['Use pnpm, not npm.']);
  });

  it('an answer that never fits the schema falls back to the offline proposals, with the reason', async () => {
    const bad = reply([toolUse('StructuredOutput', { memories: 'none' })]);
    const { result } = await run([bad, bad, bad, bad, bad, bad]);
    expect(result.extractor).toBe('heuristic');
    expect(result.fallback).toMatch(/^error_max_structured_output_retries: /);
    expect(result.proposals).toEqual(extractOffline(input()).proposals);
  });

  it('an answer whose memories all cite nothing listed falls back too', async () => {
    const { result } = await run([reply([toolUse('StructuredOutput', { memories: [memory('Made up.', [42])] })])]);
    expect(result.extractor).toBe('heuristic');
    expect(result.fallback).toMatch(/^no_valid_memories: /);
  });

  it('a failing API falls back to the offline proposals', async () => {
    const { result } = await run([
      { status: 400, message: 'bad' },
      { status: 400, message: 'bad' },
    ]);
    expect(result.extractor).toBe('heuristic');
    expect(result.fallback).toMatch(/^api_error: .*400/);
  });
});
