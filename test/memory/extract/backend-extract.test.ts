/**
 * extractWithBackend through the real `claude -p` (claude-cli backend) against the fake Messages
 * server: what the model is asked (a digest, not the transcript), how its answer maps to
 * candidates, and the fallback to the heuristics when the answer is unusable.
 */
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { createClaudeCliBackend } from '../../../src/llm/backends/claude-cli.js';
import { extractWithBackend } from '../../../src/memory/extract/backend-extract.js';
import { extractHeuristic } from '../../../src/memory/extract/heuristic.js';
import type { ExtractInput, ExtractMessage, KnownMemory } from '../../../src/memory/extract/types.js';
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
  { id: 'u2', role: 'user', kind: 'text', origin: 'typed', text: 'We deploy the api to Fly.io from the main branch.', timestamp: '2025-03-01T10:05:00Z' },
];
const input = (over: Partial<ExtractInput> = {}): ExtractInput => ({ sessionId: 's1', project: '/repo', messages, maxMemories: 20, ...over });
const memory = (content: string, messageIds: string[], extra: Record<string, unknown> = {}) => ({
  content,
  type: 'instruction',
  scope: 'project',
  stable: true,
  importance: 0.9,
  messageIds,
  relation: 'new',
  ...extra,
});

async function run(steps: FakeStep[], over: Partial<ExtractInput> = {}, opts: { chunkTokens?: number } = {}) {
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
  const result = await extractWithBackend(input(over), { backend, log, fallback: extractHeuristic, ...opts });
  return { result, logText: text() };
}

const sent = (i = 0): string => JSON.stringify(fake?.requests[i]?.body.messages ?? []);

describe('extractWithBackend (claude -p against the fake Messages API)', () => {
  it('asks once, with the person’s statements and not the transcript; maps the answer to candidates', async () => {
    const { result, logText } = await run([reply([toolUse('StructuredOutput', { memories: [memory('Use pnpm, never npm, in this repository.', ['u1'])] })])]);
    expect(result.extractor).toBe('model');
    expect(result.fallback).toBeUndefined();
    expect(result.proposals).toEqual([
      expect.objectContaining({ content: 'Use pnpm, never npm, in this repository.', type: 'instruction', messageIds: ['u1'], at: '2025-03-01T10:00:00Z' }),
    ]);
    expect(result.tokens?.input).toBeGreaterThan(0);
    expect(fake?.requests).toHaveLength(1);
    expect(sent()).toContain('[u1] user: Always use pnpm');
    expect(sent()).toContain('Fly.io');
    expect(sent()).not.toContain('TOOL-OUTPUT-NEVER-SENT');
    expect(sent()).not.toContain('ASSISTANT-PROSE');
    // Neither the prompt nor the answer is logged.
    expect(logText).not.toContain('Always use pnpm');
    expect(logText).not.toContain('Use pnpm, never npm');
  });

  it('a stored memory the model says is reinforced comes back in its stored wording', async () => {
    const stored: KnownMemory = { id: 'm1', content: 'The api deploys to Fly.io.', type: 'fact', scope: 'project' };
    const { result } = await run(
      [reply([toolUse('StructuredOutput', { memories: [memory('API is deployed on Fly.io.', ['u2'], { relation: 'reinforces', about: 'K1' })] })])],
      {
        related: () => [stored],
      },
    );
    expect(sent()).toContain('K1 (fact, project): The api deploys to Fly.io.');
    expect(result.proposals.map((c) => c.content)).toEqual(['The api deploys to Fly.io.']);
  });

  it('an answer that never fits the schema falls back to the heuristics, with the reason', async () => {
    const bad = reply([toolUse('StructuredOutput', { memories: 'none' })]);
    const { result } = await run([bad, bad, bad, bad, bad, bad]);
    expect(result.extractor).toBe('heuristic');
    expect(result.fallback).toMatch(/^error_max_structured_output_retries: /);
    expect(result.proposals.some((c) => c.content.toLowerCase().includes('pnpm'))).toBe(true);
  });

  it('an answer whose memories are all invalid falls back too', async () => {
    const { result } = await run([reply([toolUse('StructuredOutput', { memories: [memory('   ', ['u1'])] })])]);
    expect(result.extractor).toBe('heuristic');
    expect(result.fallback).toMatch(/^no_valid_memories: /);
  });

  it('a failing API falls back to the heuristics', async () => {
    const { result } = await run([
      { status: 400, message: 'bad' },
      { status: 400, message: 'bad' },
    ]);
    expect(result.extractor).toBe('heuristic');
    expect(result.fallback).toMatch(/^api_error: .*400/);
  });

  it('a long session is asked in parts', async () => {
    const ok = reply([toolUse('StructuredOutput', { memories: [] })]);
    const { result } = await run([ok, ok], {}, { chunkTokens: 20 });
    expect(result.extractor).toBe('model');
    expect(fake?.requests).toHaveLength(2);
    expect(sent(0)).toContain('part 1 of 2');
  });
});
