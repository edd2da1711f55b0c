import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { IngestSummary } from '../../src/api/memory.js';
import { startFakeAnthropic, apiError, reply, text, toolUse, type FakeAnthropic } from '../fakes/anthropic.js';
import { TestDaemon } from '../helpers/daemon.js';
import { writeClaudeTranscript } from '../helpers/transcripts.js';

const KEY = 'sk-ant-api03-fakefakefakefakefakefakefakefakefakefake-AAAA';
let fake: FakeAnthropic | undefined;
let daemon: TestDaemon | undefined;
let dir: string | undefined;
afterEach(async () => {
  await daemon?.cleanup();
  await fake?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
  daemon = fake = dir = undefined;
});

async function setUp(steps: Parameters<typeof startFakeAnthropic>[0]): Promise<{ d: TestDaemon; file: string }> {
  fake = await startFakeAnthropic(steps);
  dir = mkdtempSync('/tmp/ns-model-');
  daemon = new TestDaemon({}, { ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: KEY });
  await daemon.start();
  const file = join(dir, 'm.jsonl');
  writeClaudeTranscript(
    file,
    [
      { role: 'user', text: 'We always squash-merge pull requests in this repository.' },
      { role: 'assistant', text: 'Got it.' },
    ],
    { sessionId: 'model-1', cwd: dir, start: '2026-05-05T12:00:00Z' },
  );
  return { d: daemon, file };
}

describe('ingest with a model (fake Messages API over the real SDK)', () => {
  it('uses the model’s structured answer and records the tokens per session', async () => {
    const { d, file } = await setUp([
      reply(
        [
          toolUse('answer', {
            memories: [
              {
                content: 'Pull requests are squash-merged.',
                type: 'instruction',
                scope: 'project',
                stable: true,
                from: [1],
              },
            ],
          }),
        ],
        {
          usage: { input_tokens: 1234, output_tokens: 56 },
        },
      ),
    ]);
    const s = JSON.parse((await d.cli(['ingest', file, '--json'])).stdout) as IngestSummary;
    expect(s.extractor).toBe('model');
    expect(s.fallback).toBeUndefined();
    expect(s.added.map((m) => m.content)).toEqual(['Pull requests are squash-merged.']);
    expect(s.added[0]?.createdAt).toBe('2026-05-05T12:00:00.000Z');
    expect(s.tokens).toEqual({ input: 1234, output: 56 });
    expect(fake?.requests[0]?.body.stream).toBe(true);
    // The model read the person's statement as candidate C1, not the transcript.
    const prompt = JSON.stringify(fake?.requests[0]?.body.messages);
    expect(prompt).toMatch(/C1 \[typed · [^\]]+\] We always squash-merge pull requests in this repository\./);
    expect(prompt).not.toContain('Got it.');
    expect(s.added[0]?.sources).toEqual([{ sessionId: 'model-1', messageIds: ['model-1-0000'], said: 'typed' }]);
    const sessions = await d.client.sessions();
    expect(sessions[0]?.tokens).toEqual({ input: 1234, output: 56 });
    expect(d.log).not.toContain(KEY);
  });

  it('falls back to the heuristics when the model fails, and says why', async () => {
    const { d, file } = await setUp([apiError(400, 'invalid request: nope')]);
    const s = JSON.parse((await d.cli(['ingest', file, '--json'])).stdout) as IngestSummary;
    expect(s.extractor).toBe('heuristic');
    expect(s.fallback).toMatch(/bad_request|400/);
    expect(s.added.some((m) => m.content.toLowerCase().includes('squash-merge'))).toBe(true);
    expect(fake?.requests).toHaveLength(1); // a 400 is never retried
    expect(d.log).toContain('model extraction failed; using the offline extractor');
  });

  it('falls back on an answer with no usable JSON', async () => {
    const { d, file } = await setUp([reply([text('I could not find anything worth remembering, sorry!')])]);
    const s = JSON.parse((await d.cli(['ingest', file, '--json'])).stdout) as IngestSummary;
    expect(s.extractor).toBe('heuristic');
    expect(s.fallback).toBeDefined();
  });
});
