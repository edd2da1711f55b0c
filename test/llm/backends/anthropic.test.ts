/**
 * The Anthropic ModelBackend as the daemon makes it (createBackend, src/llm/backends/index.ts)
 * through the real SDK against the loopback fake of the Messages API: one structured question is
 * one streamed request forcing one tool whose input schema is the question's; the answer is the
 * tool input (or JSON in text), with usage; failures are answers with a code, never throws.
 */
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigSchema } from '../../../src/config.js';
import type { ModelBackend, StructuredQuestion } from '../../../src/llm/backend.js';
import { createBackend } from '../../../src/llm/backends/index.js';
import { apiError, reply, startFakeAnthropic, text, toolUse, type FakeAnthropic, type FakeStep } from '../../fakes/anthropic.js';

let fake: FakeAnthropic | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

const log = pino({ level: 'silent' });
const config = ConfigSchema.parse({ memory: { model: 'claude-haiku-4-5' } });
const schema = { type: 'object', properties: { verdict: { type: 'string' } }, required: ['verdict'] };
const question: StructuredQuestion = { purpose: 'review', system: 'Judge.', prompt: 'pair p0: a / b', schema, maxOutputTokens: 100 };

async function backend(steps: FakeStep[]): Promise<ModelBackend> {
  fake = await startFakeAnthropic({ steps, retryAfterMs: 1 });
  const made = await createBackend('anthropic', config, { ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: 'sk-test-0000' }, log);
  if (!made.ok) throw new Error(made.reason);
  return made.backend;
}

describe('the Anthropic backend', () => {
  it('asks through one forced tool with the question’s schema, streaming, and answers its input with the usage', async () => {
    const b = await backend([reply([toolUse('anything', { verdict: 'same' })], { usage: { input_tokens: 70, output_tokens: 9, cache_read_input_tokens: 5 } })]);
    const a = await b.ask(question);
    expect(a).toMatchObject({ ok: true, value: { verdict: 'same' }, usage: { inputTokens: 75, outputTokens: 9 } });
    const sent = fake?.requests[0]?.body;
    expect(sent).toMatchObject({ model: 'claude-haiku-4-5', max_tokens: 100, system: 'Judge.', stream: true, tool_choice: { type: 'tool', name: 'answer' } });
    expect(sent?.tools).toEqual([expect.objectContaining({ name: 'answer', input_schema: schema })]);
    expect(sent?.messages).toEqual([{ role: 'user', content: 'pair p0: a / b' }]);
  });

  it('takes JSON from a text answer; text without JSON and API errors are answers with a code', async () => {
    const b = await backend([
      reply([text('Here: ```json\n{"verdict": "distinct"}\n```')]),
      reply([text('I cannot tell.')]),
      apiError(401, 'invalid x-api-key'),
    ]);
    expect(await b.ask(question)).toMatchObject({ ok: true, value: { verdict: 'distinct' } });
    expect(await b.ask(question)).toMatchObject({ ok: false, code: 'no_json', usage: { outputTokens: expect.any(Number) } });
    expect(await b.ask(question)).toMatchObject({ ok: false, code: 'auth_error' });
  });

  it('is unavailable, saying why, without credentials', async () => {
    expect(await createBackend('anthropic', config, {}, log)).toEqual({ ok: false, reason: expect.stringContaining('ANTHROPIC_API_KEY') });
  });
});
