/**
 * The loop on its own (real SDK, streaming, fake server, no daemon): stop reasons, the turn limit,
 * a compaction request at a turn boundary, and the transcript it records matching what the context
 * manager was given.
 */
import Anthropic from '@anthropic-ai/sdk';
import type { MessageParam } from '@anthropic-ai/sdk/resources/messages';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { COMPACT_SYSTEM, ContextManager, type ContextEvent } from '../../src/agent/context/index.js';
import { AgentLog } from '../../src/agent/log.js';
import { runLoop, type LoopOptions } from '../../src/agent/loop.js';
import { ToolSet, type ToolContext } from '../../src/agent/tools/index.js';
import { defineTool } from '../../src/agent/tools/types.js';
import { ApiClient } from '../../src/client/api-client.js';
import { reply, startFakeAnthropic, text, toolUse, type FakeAnthropic, type FakeStep } from '../fakes/anthropic.js';

const echo = defineTool({
  name: 'echo',
  description: 'Echo the text.',
  inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
  schema: z.object({ text: z.string() }),
  brief: (i) => i.text,
  run: async (i) => ({ content: `echo: ${i.text}` }),
});

const toolCtx: ToolContext = {
  cwd: '/tmp',
  taskId: '1',
  client: new ApiClient({ socket: '/nonexistent.sock' }),
  env: {},
  foreground: new Set(),
  model: { name: 'claude-fake', contextWindow: 8000, maxOutputTokens: 1000 },
};

describe('agent loop', () => {
  const fakes: FakeAnthropic[] = [];
  afterEach(async () => {
    await Promise.all(fakes.splice(0).map((f) => f.close()));
  });

  async function setup(step: FakeStep, extra: Partial<LoopOptions> = {}) {
    const fake = await startFakeAnthropic({ defaultStep: step });
    fakes.push(fake);
    const client = new Anthropic({ apiKey: 'k', baseURL: fake.url, maxRetries: 0 });
    const events: ContextEvent[] = [];
    const ctx = new ContextManager({
      window: { contextWindow: 8000, maxOutputTokens: 1000 },
      onEvent: (e) => events.push(e),
      summarize: async (r) => {
        const m = await client.messages.create({ model: 'claude-fake', system: r.system, messages: r.messages, max_tokens: r.maxTokens });
        return { text: m.content.map((b) => (b.type === 'text' ? b.text : '')).join('') };
      },
    });
    ctx.addUser('Do the thing.');
    const recorded: MessageParam[] = [{ role: 'user', content: 'Do the thing.' }];
    let out = '';
    const opts: LoopOptions = {
      client,
      model: 'claude-fake',
      ctx,
      tools: new ToolSet([echo]),
      toolCtx,
      system: 'You are a test agent.',
      log: new AgentLog((t) => (out += t)),
      record: (m) => recorded.push(m),
      maxTurns: 20,
      takeCompactRequest: async () => false,
      ...extra,
    };
    return { fake, ctx, events, recorded, opts, log: () => out };
  }

  it('runs tools until end_turn and records every message the manager was given', async () => {
    let n = 0;
    const { fake, ctx, recorded, opts, log } = await setup(() =>
      ++n === 1 ? reply([text('Echoing.'), toolUse('echo', { text: 'hi' }), toolUse('nope', {})]) : reply('Finished.'),
    );
    const out = await runLoop(opts);
    expect(out).toMatchObject({ ok: true, code: 'done', summary: 'Finished.', turns: 2 });
    expect(recorded.length).toBe(ctx.messageCount);
    expect(recorded[2]).toEqual({
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: expect.any(String), content: 'echo: hi' },
        { type: 'tool_result', tool_use_id: expect.any(String), content: expect.stringMatching(/^unknown tool nope/), is_error: true },
      ],
    });
    expect(log()).toMatch(/▸ assistant: Echoing\.\n⚙ echo\(hi\) → 8 B\n⚙ nope\(\{\}\) → error \(\d+ B\): unknown tool nope/);
    expect(fake.requests.every((r) => r.stream && r.body.max_tokens === 1000)).toBe(true);
  });

  it('does not run a tool call cut off at max_tokens, asks to continue a cut-off text, and gives up after 4 cut-offs in a row', async () => {
    const steps: FakeStep[] = [
      reply([toolUse('echo', { text: 'par' })], { stop_reason: 'max_tokens' }),
      reply('Half a sent', { stop_reason: 'max_tokens' }),
      reply('ence. Done.'),
    ];
    const a = await setup(() => steps.shift() ?? reply('?'));
    const out = await runLoop(a.opts);
    expect(out).toMatchObject({ ok: true, code: 'done', turns: 3 });
    const second = JSON.stringify(a.fake.requests[1]?.body.messages);
    expect(second).toContain('before this call was complete, so it was not run');
    expect(JSON.stringify(a.fake.requests[2]?.body.messages)).toContain('Continue exactly where it stopped');
    expect(a.recorded.length).toBe(a.ctx.messageCount);

    const b = await setup(() => reply('cut', { stop_reason: 'max_tokens' }));
    expect(await runLoop(b.opts)).toMatchObject({ ok: false, code: 'max_tokens', turns: 4 });
  });

  it('stops at the turn limit, and on a refusal', async () => {
    const a = await setup(() => reply([toolUse('echo', { text: 'again' })]), { maxTurns: 3 });
    expect(await runLoop(a.opts)).toMatchObject({ ok: false, code: 'max_turns', turns: 3 });
    const b = await setup(() => reply('No.', { stop_reason: 'refusal' }));
    expect(await runLoop(b.opts)).toMatchObject({ ok: false, code: 'refusal' });
  });

  it('compacts when asked, at the next turn boundary', async () => {
    let asked = false;
    let n = 0;
    const step: FakeStep = (r) => {
      if (r.body.system === COMPACT_SYSTEM) return reply('<summary>\n## Goal\nDo the thing.\n## Next step\nFinish.\n</summary>');
      return ++n <= 3 ? reply([toolUse('echo', { text: `t${n}` })]) : reply('Done.');
    };
    const a = await setup(step, {
      takeCompactRequest: async () => {
        if (n !== 3 || asked) return false;
        asked = true;
        return true;
      },
    });
    expect(await runLoop(a.opts)).toMatchObject({ ok: true });
    expect(a.events.filter((e) => e.type === 'compaction')).toEqual([expect.objectContaining({ trigger: 'manual', ok: true })]);
    expect(a.log()).toContain('◆ context: compaction requested (nightshift compact)');
    expect(a.fake.requests.filter((r) => r.body.system === COMPACT_SYSTEM)).toHaveLength(1);
  });
});
