/**
 * The model client as nightshift builds it (modelConfigFromEnv → createAnthropic, src/llm/client.ts)
 * and the error values its failures become (src/llm/errors.ts), through the real SDK against the
 * loopback fake of the Messages API. What is checked is nightshift's behaviour: which credentials go
 * out, how many attempts a failure gets under the configured retries and timeout, what error value a
 * caller receives, what usage a streamed answer reports, and that the SDK never logs on its own.
 */
import { createServer } from 'node:net';
import { Writable } from 'node:stream';
import type Anthropic from '@anthropic-ai/sdk';
import { pino, type Logger } from 'pino';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createAnthropic, describeModel, modelConfigFromEnv, PLACEHOLDER_API_KEY, type ModelSettings } from '../../src/llm/client.js';
import { classifyModelError, type ModelError } from '../../src/llm/errors.js';
import {
  apiError,
  fakeEstimate,
  overloaded,
  promptTooLong,
  rateLimited,
  reply,
  startFakeAnthropic,
  text,
  toolUse,
  type FakeAnthropic,
  type FakeOptions,
  type FakeStep,
} from '../fakes/anthropic.js';

const KEY = 'test-key-not-real-0001';
let fake: FakeAnthropic | undefined;
const savedEnv = { ...process.env };
afterEach(async () => {
  await fake?.close();
  fake = undefined;
  for (const k of ['ANTHROPIC_API_KEY', 'ANTHROPIC_AUTH_TOKEN', 'ANTHROPIC_LOG', 'ANTHROPIC_BASE_URL']) {
    if (savedEnv[k] === undefined) delete process.env[k];
    else process.env[k] = savedEnv[k];
  }
  vi.restoreAllMocks();
});

function memoryLog(): { log: Logger; text: () => string } {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, cb) {
      lines.push(chunk.toString());
      cb();
    },
  });
  return { log: pino({ level: 'trace' }, stream), text: () => lines.join('') };
}

/** The client the daemon would build for this environment and these settings. */
async function clientFor(
  script: FakeStep[] | FakeOptions,
  env: Record<string, string> = { ANTHROPIC_API_KEY: KEY },
  settings: ModelSettings = {},
  log?: Logger,
) {
  fake = await startFakeAnthropic(script);
  const cfg = modelConfigFromEnv({ ...env, ANTHROPIC_BASE_URL: fake.url }, { model: 'claude-test', ...settings });
  if (!cfg) throw new Error('no model configured');
  return { client: createAnthropic(cfg, log), cfg };
}

type Outcome = { ok: true; message: Anthropic.Messages.Message } | { ok: false; error: ModelError };

/** One streamed request, as the extractor and the agent loop make them; failures as error values. */
async function ask(client: Anthropic, opts: { signal?: AbortSignal; model?: string } = {}): Promise<Outcome> {
  try {
    const stream = client.messages.stream(
      { model: opts.model ?? 'claude-test', max_tokens: 64, messages: [{ role: 'user', content: 'hi' }] },
      opts.signal ? { signal: opts.signal } : {},
    );
    return { ok: true, message: await stream.finalMessage() };
  } catch (err) {
    return { ok: false, error: classifyModelError(err) };
  }
}

const failure = (o: Outcome): ModelError => {
  if (o.ok) throw new Error(`expected a failure, got ${JSON.stringify(o.message.content)}`);
  return o.error;
};

describe('modelConfigFromEnv', () => {
  it('says no model without a key, token or base URL', () => {
    expect(modelConfigFromEnv({})).toBeUndefined();
    expect(modelConfigFromEnv({ ANTHROPIC_API_KEY: '  ', ANTHROPIC_BASE_URL: '' })).toBeUndefined();
    expect(describeModel(undefined)).toMatch(/set ANTHROPIC_API_KEY or ANTHROPIC_BASE_URL/);
  });

  it('uses the API key, with 2 retries and a 10-minute timeout by default', () => {
    const cfg = modelConfigFromEnv({ ANTHROPIC_API_KEY: KEY });
    expect(cfg).toEqual({ apiKey: KEY, model: 'claude-sonnet-4-5', maxRetries: 2, timeoutMs: 600_000 });
    expect(describeModel(cfg)).toBe('claude-sonnet-4-5 via https://api.anthropic.com');
    expect(describeModel(cfg)).not.toContain(KEY);
  });

  it('sends a placeholder key with only a base URL', () => {
    expect(modelConfigFromEnv({ ANTHROPIC_BASE_URL: 'http://127.0.0.1:9' })).toMatchObject({ apiKey: PLACEHOLDER_API_KEY, baseURL: 'http://127.0.0.1:9' });
  });

  it('passes an auth token as a bearer token, without a placeholder key', () => {
    const cfg = modelConfigFromEnv({ ANTHROPIC_AUTH_TOKEN: 'tok', ANTHROPIC_BASE_URL: 'http://h' });
    expect(cfg).toMatchObject({ authToken: 'tok' });
    expect(cfg?.apiKey).toBeUndefined();
  });

  it('takes the model from NIGHTSHIFT_MODEL, then ANTHROPIC_MODEL, then settings; can be switched off', () => {
    expect(modelConfigFromEnv({ ANTHROPIC_API_KEY: KEY, NIGHTSHIFT_MODEL: 'm-env', ANTHROPIC_MODEL: 'm-a' }, { model: 'm-cfg' })?.model).toBe('m-env');
    expect(modelConfigFromEnv({ ANTHROPIC_API_KEY: KEY, ANTHROPIC_MODEL: 'm-a' }, { model: 'm-cfg' })?.model).toBe('m-a');
    expect(modelConfigFromEnv({ ANTHROPIC_API_KEY: KEY }, { model: 'm-cfg', maxRetries: 0, timeoutMs: 5 })).toMatchObject({
      model: 'm-cfg',
      maxRetries: 0,
      timeoutMs: 5,
    });
    expect(modelConfigFromEnv({ ANTHROPIC_API_KEY: KEY }, { enabled: false })).toBeUndefined();
  });
});

describe('credentials on the wire', () => {
  it('sends the configured key as x-api-key, and the configured model', async () => {
    const { client } = await clientFor([reply('hello')]);
    const o = await ask(client);
    expect(o.ok).toBe(true);
    expect(fake?.requests[0]?.headers['x-api-key']).toBe(KEY);
    expect(fake?.requests[0]?.headers['authorization']).toBeUndefined();
    expect(fake?.requests[0]?.headers['anthropic-version']).toBeTruthy();
  });

  it('sends an auth token as Authorization: Bearer and no key', async () => {
    const { client } = await clientFor({ apiKey: 'tok-1' }, { ANTHROPIC_AUTH_TOKEN: 'tok-1' });
    expect((await ask(client)).ok).toBe(true);
    expect(fake?.requests[0]?.headers['authorization']).toBe('Bearer tok-1');
    expect(fake?.requests[0]?.headers['x-api-key']).toBeUndefined();
  });

  it('never lets the SDK pick up credentials of its own from the process environment', async () => {
    process.env['ANTHROPIC_API_KEY'] = 'sk-from-process-env';
    process.env['ANTHROPIC_AUTH_TOKEN'] = 'tok-from-process-env';
    // Configured with a key: no bearer token joins it. With a token: no key. With a base URL only
    // (a local endpoint): the placeholder key.
    for (const env of [{ ANTHROPIC_API_KEY: KEY }, { ANTHROPIC_AUTH_TOKEN: 'tok-1' }, {}] as Array<Record<string, string>>) {
      const { client } = await clientFor([reply('hello')], env);
      expect((await ask(client)).ok).toBe(true);
      const headers = fake?.requests[0]?.headers ?? {};
      expect(JSON.stringify(headers)).not.toMatch(/from-process-env/);
      expect([headers['x-api-key'], headers['authorization']]).toEqual(
        'ANTHROPIC_API_KEY' in env ? [KEY, undefined] : 'ANTHROPIC_AUTH_TOKEN' in env ? [undefined, 'Bearer tok-1'] : [PLACEHOLDER_API_KEY, undefined],
      );
      await fake?.close();
      fake = undefined;
    }
  });

  it('a wrong key is an auth_error value naming the variable to check, not retried', async () => {
    const { client } = await clientFor({ apiKey: 'right' }, { ANTHROPIC_API_KEY: 'wrong' });
    const e = failure(await ask(client));
    expect(e).toMatchObject({ code: 'auth_error', status: 401 });
    expect(e.message).toContain('ANTHROPIC_API_KEY');
    expect(e.requestId).toMatch(/^req_fake_/);
    expect(fake?.requests).toHaveLength(1);
  });
});

describe('retries under the configured maxRetries', () => {
  it('retries overloaded and server errors twice by default, then answers', async () => {
    const { client } = await clientFor([overloaded(), apiError(500), reply('ok at last')]);
    const o = await ask(client);
    expect(o.ok && o.message.content).toEqual([{ type: 'text', text: 'ok at last', citations: null }]);
    expect(fake?.requests).toHaveLength(3);
    expect(fake?.requests.every((r) => r.stream && r.body.model === 'claude-test')).toBe(true);
  });

  it('gives up after 1 + maxRetries attempts with the last error as a value', async () => {
    const { client } = await clientFor([overloaded(), overloaded(), overloaded(), reply('never reached')]);
    expect(failure(await ask(client))).toMatchObject({ code: 'overloaded', status: 529 });
    expect(fake?.requests).toHaveLength(3);
    expect(fake?.pending).toBe(1);
  });

  it('maxRetries 0 from the settings: one attempt only', async () => {
    const { client } = await clientFor([rateLimited(), reply('never reached')], undefined, { maxRetries: 0 });
    const e = failure(await ask(client));
    expect(e).toMatchObject({ code: 'rate_limited', status: 429 });
    expect(e.message).toMatch(/rate limit/);
    expect(fake?.requests).toHaveLength(1);
  });

  it("never retries what is the request's fault: too long, too large, bad request", async () => {
    const { client } = await clientFor([
      promptTooLong(300_000, 200_000),
      apiError(413, 'request exceeds the maximum size'),
      apiError(400, 'max_tokens: 999999 > 64000'),
    ]);
    expect(failure(await ask(client))).toMatchObject({ code: 'prompt_too_long', status: 400, promptTokens: { actual: 300_000, max: 200_000 } });
    expect(failure(await ask(client))).toMatchObject({ code: 'request_too_large', status: 413 });
    const bad = failure(await ask(client));
    expect(bad).toMatchObject({ code: 'bad_request', status: 400 });
    expect(bad.message).toBe('400 max_tokens: 999999 > 64000');
    expect(fake?.requests).toHaveLength(3);
  });

  it('retries a dropped connection; with no retries left it is a connection_error value', async () => {
    const { client } = await clientFor([{ drop: true }, reply('after the drop')]);
    const o = await ask(client);
    expect(o.ok && o.message.content[0]).toMatchObject({ text: 'after the drop' });
    expect(fake?.requests).toHaveLength(2);
    await fake?.close();
    const { client: once } = await clientFor([{ drop: true }, reply('never reached')], undefined, { maxRetries: 0 });
    const e = failure(await ask(once));
    expect(e.code).toBe('connection_error');
    expect(e.message).toContain('ANTHROPIC_BASE_URL');
  });

  it('nothing listening at the base URL is a connection_error value', async () => {
    const port = await new Promise<number>((resolve) => {
      const s = createServer().listen(0, '127.0.0.1', () => {
        const p = (s.address() as { port: number }).port;
        s.close(() => resolve(p));
      });
    });
    const cfg = modelConfigFromEnv({ ANTHROPIC_BASE_URL: `http://127.0.0.1:${port}` }, { maxRetries: 1 });
    if (!cfg) throw new Error('no model configured');
    expect(failure(await ask(createAnthropic(cfg)))).toMatchObject({ code: 'connection_error' });
  });
});

describe('timeouts and aborts', () => {
  it('a slow answer times out after timeoutMs and is retried; the retry that answers in time wins', async () => {
    const { client } = await clientFor([reply('late', { delayMs: 3000 }), reply('in time')], undefined, { timeoutMs: 300, maxRetries: 1 });
    const started = Date.now();
    const o = await ask(client);
    expect(o.ok && o.message.content[0]).toMatchObject({ text: 'in time' });
    expect(Date.now() - started).toBeLessThan(2500);
    expect(fake?.requests).toHaveLength(2);
  });

  it('with no retries left a slow answer is a timeout value', async () => {
    const { client } = await clientFor([reply('late', { delayMs: 3000 })], undefined, { timeoutMs: 200, maxRetries: 0 });
    expect(failure(await ask(client))).toMatchObject({ code: 'timeout' });
  });

  it('an abort by the caller is an aborted value, never retried', async () => {
    const { client } = await clientFor([reply('late', { delayMs: 3000 }), reply('never reached')]);
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 100);
    expect(failure(await ask(client, { signal: ac.signal }))).toMatchObject({ code: 'aborted' });
    expect(fake?.requests).toHaveLength(1);
  });
});

describe('streaming', () => {
  it('delivers text as it streams and the whole answer with its usage, cache counts included', async () => {
    const input = { memories: [{ content: 'a "quoted" \\ value', n: [1, 2, 3] }] };
    const { client } = await clientFor({
      steps: [
        reply([{ type: 'thinking', thinking: 'let me think about it for a while' }, text('Calling the tool now.'), toolUse('record', input, 'toolu_1')], {
          usage: { cache_read_input_tokens: 700, cache_creation_input_tokens: 30 },
        }),
      ],
      chunkChars: 5,
    });
    const deltas: string[] = [];
    const stream = client.messages.stream({ model: 'claude-test', max_tokens: 100, messages: [{ role: 'user', content: 'go' }] });
    stream.on('text', (d) => deltas.push(d));
    const msg = await stream.finalMessage();
    expect(deltas).toEqual(['Calli', 'ng th', 'e too', 'l now', '.']);
    expect(msg.content).toEqual([
      { type: 'thinking', thinking: 'let me think about it for a while', signature: expect.any(String) },
      { type: 'text', text: 'Calling the tool now.', citations: null },
      { type: 'tool_use', id: 'toolu_1', name: 'record', input },
    ]);
    expect(msg.stop_reason).toBe('tool_use');
    // What callers record as input (uncached + cache read + cache creation) is what the API counted.
    const body = fake?.requests[0]?.body;
    if (!body) throw new Error('no request');
    expect(msg.usage).toMatchObject({ input_tokens: fakeEstimate(body), cache_read_input_tokens: 700, cache_creation_input_tokens: 30 });
    expect(msg.usage.output_tokens).toBeGreaterThan(1); // from message_delta, not message_start's placeholder
  });

  it('an error event mid-stream is an error value of its type, and is not retried', async () => {
    const { client } = await clientFor([reply('partial', { streamError: { type: 'overloaded_error', message: 'Overloaded' } }), reply('never reached')]);
    expect(failure(await ask(client)).code).toBe('overloaded');
    expect(fake?.requests).toHaveLength(1);
  });
});

describe('logging', () => {
  it('the SDK logs nothing of its own (no console, no request details), even with ANTHROPIC_LOG=debug', async () => {
    process.env['ANTHROPIC_LOG'] = 'debug';
    const console$ = [vi.spyOn(console, 'log'), vi.spyOn(console, 'info'), vi.spyOn(console, 'warn'), vi.spyOn(console, 'error'), vi.spyOn(console, 'debug')];
    const { log, text: logText } = memoryLog();
    const { client } = await clientFor([overloaded(), reply('ok')], undefined, {}, log);
    expect((await ask(client)).ok).toBe(true);
    expect(fake?.requests).toHaveLength(2); // a retry happened: the SDK had something to say
    for (const spy of console$) expect(spy).not.toHaveBeenCalled();
    expect(logText()).toBe('');
  });
});
