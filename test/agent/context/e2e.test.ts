/**
 * End to end: a minimal agent loop (written here) on the real SDK, streaming, against the scripted
 * fake Messages server, with an 8,000-token window. Proactive compaction, exact counts near the
 * limit, a scripted "prompt is too long" → reactive compaction → retry, and two in a row → a clean
 * give-up with the checkpoint on disk.
 */
import { existsSync, readFileSync } from 'node:fs';
import Anthropic from '@anthropic-ai/sdk';
import type { Message, ToolUnion } from '@anthropic-ai/sdk/resources/messages';
import { afterEach, describe, expect, it } from 'vitest';
import {
  COMPACT_SYSTEM,
  ContextManager,
  NOTES_TOOL,
  NOTES_TOOL_NAME,
  type CheckpointOutcome,
  type ContextError,
  type ContextEvent,
} from '../../../src/agent/context/index.js';
import {
  fakeEstimate,
  promptTooLong,
  reply,
  text,
  toolUse,
  startFakeAnthropic,
  type FakeAnthropic,
  type FakeStep,
  type RecordedRequest,
} from '../../fakes/anthropic.js';
import { filler, tempDir } from './helpers.js';

const WINDOW = { contextWindow: 8_000, maxOutputTokens: 1_000 };
const SYSTEM = 'You are a coding agent. Use the tools.';
const TASK = 'Read every file under src/ and report what each exports. Do not modify anything.';
const DECISION = 'Report exports alphabetically, because the user diffed the last report';
const READ_TOOL: ToolUnion = {
  name: 'read_file',
  description: 'Read a file',
  input_schema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
};

type Outcome =
  { kind: 'done'; text: string } | { kind: 'gave_up'; error: ContextError; checkpoint: CheckpointOutcome } | { kind: 'context_full'; error: ContextError };

/** The loop a caller of the library would write, minus logging. */
async function agentLoop(client: Anthropic, ctx: ContextManager, maxRequests = 60): Promise<Outcome> {
  const tools = [READ_TOOL, NOTES_TOOL];
  for (let n = 0; n < maxRequests; n++) {
    const req = await ctx.prepareRequest({ system: SYSTEM, tools });
    if (!req.ok) return { kind: 'context_full', error: req.error };
    let msg: Message;
    try {
      const r = req.value;
      msg = await client.messages
        .stream({ model: 'claude-fake', system: r.system, tools: r.tools, messages: r.messages, max_tokens: r.maxTokens })
        .finalMessage();
    } catch (err) {
      const d = await ctx.onOverflow(err);
      if (d.action === 'retry') continue;
      if (d.action === 'give_up') return { kind: 'gave_up', error: d.error, checkpoint: d.checkpoint };
      throw err;
    }
    ctx.addAssistant(msg.content, msg.usage);
    const uses = msg.content.flatMap((b) => (b.type === 'tool_use' ? [b] : []));
    if (uses.length === 0) return { kind: 'done', text: msg.content.map((b) => (b.type === 'text' ? b.text : '')).join('') };
    await ctx.addToolResults(
      uses.map((u) =>
        u.name === NOTES_TOOL_NAME
          ? { tool_use_id: u.id, ...ctx.notes.handle(u.input) }
          : { tool_use_id: u.id, content: `// ${JSON.stringify(u.input)}\n${filler(2400)}` },
      ),
    );
  }
  throw new Error('loop did not finish');
}

const isSummary = (r: RecordedRequest) => r.body.system === COMPACT_SYSTEM;

/** The scripted model: reads files, writes a note, finishes on call `finishAt`; overflows where told. */
function model(opts: { finishAt: number; overflowAt: number[] }): { step: FakeStep; mainCalls: () => number } {
  let main = 0;
  const step: FakeStep = (r) => {
    if (isSummary(r)) {
      return reply(
        `<analysis>scratch</analysis><summary>\n## Goal\n${TASK}\n## Done\n- read some files\n## Decisions\n- ${DECISION}\n## Next step\nRead the next file.\n</summary>`,
      );
    }
    main++;
    if (opts.overflowAt.includes(main)) return promptTooLong(9_000, 8_000);
    if (main === 2) return reply([text('Noting a decision.'), toolUse(NOTES_TOOL_NAME, { action: 'add', section: 'decisions', text: DECISION })]);
    if (main >= opts.finishAt) return reply('All files read; report written.');
    return reply([text(`Reading file ${main}.`), toolUse('read_file', { path: `src/file${main}.ts` })]);
  };
  return { step, mainCalls: () => main };
}

describe('context management end to end (real SDK, streaming, fake server)', () => {
  const cleanups: Array<() => Promise<void> | void> = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });

  async function start(script: {
    step: FakeStep;
  }): Promise<{ fake: FakeAnthropic; client: Anthropic; ctx: ContextManager; events: ContextEvent[]; taskDir: string }> {
    const fake = await startFakeAnthropic({ defaultStep: script.step });
    cleanups.push(() => fake.close());
    const t = tempDir();
    cleanups.push(t.remove);
    const client = new Anthropic({ apiKey: 'test-key', baseURL: fake.url, maxRetries: 0 });
    const events: ContextEvent[] = [];
    const ctx = new ContextManager({
      window: WINDOW,
      taskDir: t.dir,
      taskId: 'e2e',
      onEvent: (e) => events.push(e),
      summarize: async (r) => {
        const m = await client.messages.stream({ model: 'claude-fake', system: r.system, messages: r.messages, max_tokens: r.maxTokens }).finalMessage();
        return { text: m.content.map((b) => (b.type === 'text' ? b.text : '')).join(''), usage: m.usage };
      },
      countTokens: async (r) =>
        (
          await client.messages.countTokens({
            model: 'claude-fake',
            messages: r.messages,
            ...(r.system ? { system: r.system } : {}),
            ...(r.tools ? { tools: r.tools } : {}),
          })
        ).input_tokens,
    });
    ctx.addUser(TASK);
    return { fake, client, ctx, events, taskDir: t.dir };
  }

  /** What the server received, held to the window the way the API would count it. */
  function expectWithinWindow(fake: FakeAnthropic): void {
    for (const r of fake.requests) expect(fakeEstimate(r.body) + r.body.max_tokens).toBeLessThanOrEqual(WINDOW.contextWindow);
  }

  it('runs a long task in a small window: proactive compactions, and an overflow retried after one reactive compaction', async () => {
    const script = model({ finishAt: 24, overflowAt: [12] });
    const { fake, client, ctx, events } = await start(script);
    const out = await agentLoop(client, ctx);
    expect(out).toEqual({ kind: 'done', text: 'All files read; report written.' });
    expect(fake.requests.every((r) => r.stream)).toBe(true);
    expectWithinWindow(fake);
    const compactions = events.flatMap((e) => (e.type === 'compaction' ? [e] : []));
    expect(compactions.filter((c) => c.trigger === 'proactive' && c.ok).length).toBeGreaterThanOrEqual(1);
    expect(compactions.filter((c) => c.trigger === 'reactive')).toEqual([expect.objectContaining({ ok: true })]);
    expect(compactions[0]?.summaryUsage?.input_tokens).toBeGreaterThan(0);
    expect(events.flatMap((e) => (e.type === 'overflow' ? [e.action] : []))).toEqual(['retry']);
    expect(fake.countTokensCalls.length).toBeGreaterThan(0);
    // The final request still carried the task verbatim and the agent's note.
    const last = fake.requests[fake.requests.length - 1];
    expect(JSON.stringify(last?.body.messages)).toContain(TASK);
    expect(JSON.stringify(last?.body.messages)).toContain(DECISION);
    expect(ctx.health().compaction.count).toBe(compactions.filter((c) => c.ok).length);
  });

  it('gives up cleanly when the retry overflows too, with the checkpoint saved', async () => {
    const script = model({ finishAt: 40, overflowAt: [8, 9] });
    const { fake, client, ctx, events, taskDir } = await start(script);
    const out = await agentLoop(client, ctx);
    expect(out.kind).toBe('gave_up');
    if (out.kind !== 'gave_up') return;
    expect(out.error.code).toBe('overflow');
    expect(out.error.message).toMatch(/prompt is too long/);
    expect(script.mainCalls()).toBe(9); // no further request after giving up: never a loop
    expect(fake.requests.filter(isSummary).length).toBe(events.filter((e) => e.type === 'compaction').length);
    expect(events.flatMap((e) => (e.type === 'overflow' ? [e.action] : []))).toEqual(['retry', 'give_up']);
    expect(out.checkpoint.jsonPath).toBe(`${taskDir}/context/checkpoint.json`);
    expect(existsSync(out.checkpoint.jsonPath as string)).toBe(true);
    const saved = JSON.parse(readFileSync(out.checkpoint.jsonPath as string, 'utf8')) as { goal: string; version: number; decisions: string[] };
    expect(saved.goal).toBe(TASK);
    expect(saved.decisions).toContain(DECISION);
    expect(readFileSync(`${taskDir}/context/checkpoint.md`, 'utf8')).toContain(`## Goal\n${TASK}`);
    expectWithinWindow(fake);
  });
});
