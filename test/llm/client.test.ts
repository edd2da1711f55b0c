import { afterEach, describe, expect, it } from 'vitest';
import { createAnthropic, modelConfigFromEnv, PLACEHOLDER_API_KEY } from '../../src/llm/client.js';
import { classifyModelError } from '../../src/llm/errors.js';
import { apiError, fakeEstimate, overloaded, promptTooLong, reply, startFakeAnthropic, text, toolUse, type FakeAnthropic } from '../fakes/anthropic.js';

const KEY = 'test-key-not-real-0001';
let fake: FakeAnthropic | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

describe('modelConfigFromEnv', () => {
  it('says no model without a key, token or base URL', () => {
    expect(modelConfigFromEnv({})).toBeUndefined();
    expect(modelConfigFromEnv({ ANTHROPIC_API_KEY: '  ', ANTHROPIC_BASE_URL: '' })).toBeUndefined();
  });

  it('uses the API key', () => {
    const cfg = modelConfigFromEnv({ ANTHROPIC_API_KEY: KEY });
    expect(cfg).toMatchObject({ apiKey: KEY, maxRetries: 2 });
    expect(cfg?.authToken).toBeUndefined();
    expect(cfg?.baseURL).toBeUndefined();
  });

  it('sends a placeholder key with only a base URL', () => {
    expect(modelConfigFromEnv({ ANTHROPIC_BASE_URL: 'http://127.0.0.1:9' })).toMatchObject({ apiKey: PLACEHOLDER_API_KEY, baseURL: 'http://127.0.0.1:9' });
  });

  it('passes an auth token as a bearer token, without a placeholder key', () => {
    const cfg = modelConfigFromEnv({ ANTHROPIC_AUTH_TOKEN: 'tok', ANTHROPIC_BASE_URL: 'http://h' });
    expect(cfg).toMatchObject({ authToken: 'tok' });
    expect(cfg?.apiKey).toBeUndefined();
  });

  it('takes the model from the environment, then settings; can be switched off', () => {
    expect(modelConfigFromEnv({ ANTHROPIC_API_KEY: KEY, NIGHTSHIFT_MODEL: 'm-env' }, { model: 'm-cfg' })?.model).toBe('m-env');
    expect(modelConfigFromEnv({ ANTHROPIC_API_KEY: KEY }, { model: 'm-cfg', maxRetries: 0, timeoutMs: 5 })).toMatchObject({ model: 'm-cfg', maxRetries: 0, timeoutMs: 5 });
    expect(modelConfigFromEnv({ ANTHROPIC_API_KEY: KEY }, { enabled: false })).toBeUndefined();
  });
});

describe('createAnthropic against the fake', () => {
  it('sends the key and version headers; non-streaming replies', async () => {
    fake = await startFakeAnthropic([reply('hello there', { usage: { input_tokens: 12, output_tokens: 3 } })]);
    const client = createAnthropic({ apiKey: KEY, baseURL: fake.url });
    const msg = await client.messages.create({ model: 'm', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] });
    expect(msg.content).toEqual([{ type: 'text', text: 'hello there', citations: null }]);
    expect(msg.usage).toMatchObject({ input_tokens: 12, output_tokens: 3 });
    expect(msg.stop_reason).toBe('end_turn');
    const req = fake.requests[0];
    expect(req?.headers['x-api-key']).toBe(KEY);
    expect(req?.headers['anthropic-version']).toBeTruthy();
    expect(req?.stream).toBe(false);
    expect(req?.body.messages).toEqual([{ role: 'user', content: 'hi' }]);
  });

  it('sends an auth token as Authorization: Bearer', async () => {
    fake = await startFakeAnthropic({ apiKey: 'tok-1' });
    const client = createAnthropic({ authToken: 'tok-1', baseURL: fake.url });
    await client.messages.create({ model: 'm', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] });
    expect(fake.requests[0]?.headers['authorization']).toBe('Bearer tok-1');
    expect(fake.requests[0]?.headers['x-api-key']).toBeUndefined();
  });

  it('a wrong key gets 401, classified as auth_error with a hint', async () => {
    fake = await startFakeAnthropic({ apiKey: 'right' });
    const client = createAnthropic({ apiKey: 'wrong', baseURL: fake.url, maxRetries: 0 });
    const err = await client.messages.create({ model: 'm', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] }).catch((e: unknown) => e);
    expect(classifyModelError(err)).toMatchObject({ code: 'auth_error', status: 401 });
    expect(classifyModelError(err).message).toContain('ANTHROPIC_API_KEY');
  });

  it('streams text, thinking and tool_use blocks the SDK accumulates', async () => {
    const input = { memories: [{ content: 'a "quoted" \\ value', n: [1, 2, 3] }] };
    fake = await startFakeAnthropic({
      steps: [reply([{ type: 'thinking', thinking: 'let me think about it for a while' }, text('Calling the tool now.'), toolUse('record', input, 'toolu_1')], { usage: { cache_read_input_tokens: 7 } })],
      chunkChars: 5,
    });
    const client = createAnthropic({ apiKey: KEY, baseURL: fake.url });
    const deltas: string[] = [];
    const stream = client.messages.stream({ model: 'm', max_tokens: 100, messages: [{ role: 'user', content: 'go' }] });
    stream.on('text', (d) => deltas.push(d));
    const msg = await stream.finalMessage();
    expect(deltas.length).toBeGreaterThan(1);
    expect(msg.content).toEqual([
      { type: 'thinking', thinking: 'let me think about it for a while', signature: expect.any(String) },
      { type: 'text', text: 'Calling the tool now.', citations: null },
      { type: 'tool_use', id: 'toolu_1', name: 'record', input },
    ]);
    expect(msg.stop_reason).toBe('tool_use');
    expect(msg.usage.cache_read_input_tokens).toBe(7);
    expect(msg.usage.input_tokens).toBe(fakeEstimate(fake.requests[0]!.body));
    expect(fake.requests[0]?.stream).toBe(true);
  });

  it('retries 529 and 500 (SDK), not 400', async () => {
    fake = await startFakeAnthropic([overloaded(), apiError(500), reply('ok'), promptTooLong(300_000, 200_000)]);
    const client = createAnthropic({ apiKey: KEY, baseURL: fake.url, maxRetries: 2 });
    const msg = await client.messages.create({ model: 'm', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] });
    expect(msg.content[0]).toMatchObject({ text: 'ok' });
    expect(fake.requests).toHaveLength(3);
    const err = await client.messages.create({ model: 'm', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] }).catch((e: unknown) => e);
    expect(fake.requests).toHaveLength(4);
    expect(classifyModelError(err)).toMatchObject({ code: 'prompt_too_long', status: 400, promptTokens: { actual: 300_000, max: 200_000 } });
  });

  it('a mid-stream error event surfaces as an error of its type', async () => {
    fake = await startFakeAnthropic([reply('partial', { streamError: { type: 'overloaded_error', message: 'Overloaded' } })]);
    const client = createAnthropic({ apiKey: KEY, baseURL: fake.url });
    const err = await client.messages.stream({ model: 'm', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] }).finalMessage().catch((e: unknown) => e);
    expect(classifyModelError(err).code).toBe('overloaded');
    expect(fake.requests).toHaveLength(1);
  });

  it('a dropped connection is retried; a slow answer times out', async () => {
    fake = await startFakeAnthropic([{ drop: true }, reply('after drop'), reply('late', { delayMs: 2000 })]);
    const client = createAnthropic({ apiKey: KEY, baseURL: fake.url, maxRetries: 1, timeoutMs: 300 });
    const msg = await client.messages.create({ model: 'm', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] });
    expect(msg.content[0]).toMatchObject({ text: 'after drop' });
    const slow = createAnthropic({ apiKey: KEY, baseURL: fake.url, maxRetries: 0, timeoutMs: 200 });
    const err = await slow.messages.create({ model: 'm', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] }).catch((e: unknown) => e);
    expect(classifyModelError(err).code).toBe('timeout');
  });

  it('count_tokens answers the estimate, or a scripted number', async () => {
    fake = await startFakeAnthropic();
    const client = createAnthropic({ apiKey: KEY, baseURL: fake.url });
    const params = { model: 'm', messages: [{ role: 'user' as const, content: 'x'.repeat(400) }] };
    const r = await client.messages.countTokens(params);
    expect(r.input_tokens).toBe(fakeEstimate(params));
    expect(fake.countTokensCalls).toHaveLength(1);
    expect(fake.requests).toHaveLength(0);
    await fake.close();
    fake = await startFakeAnthropic({ countTokens: () => 1234 });
    const client2 = createAnthropic({ apiKey: KEY, baseURL: fake.url });
    expect((await client2.messages.countTokens(params)).input_tokens).toBe(1234);
  });

  it('answers from function steps and the default step, and reports what is pending', async () => {
    fake = await startFakeAnthropic({ steps: [(req) => reply(`you said ${String(req.body.messages[0]?.content)}`)], defaultStep: reply('default') });
    fake.push(reply('pushed'));
    expect(fake.pending).toBe(2);
    const client = createAnthropic({ apiKey: KEY, baseURL: fake.url });
    const ask = async (): Promise<unknown> => (await client.messages.create({ model: 'm', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] })).content[0];
    expect(await ask()).toMatchObject({ text: 'you said hi' });
    expect(await ask()).toMatchObject({ text: 'pushed' });
    expect(await ask()).toMatchObject({ text: 'default' });
    expect(fake.pending).toBe(0);
  });
});
