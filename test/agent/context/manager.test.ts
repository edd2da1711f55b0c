import { existsSync, readFileSync } from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { MessageParam } from '@anthropic-ai/sdk/resources/messages';
import { ContextManager } from '../../../src/agent/context/manager.js';
import { resumeTask } from '../../../src/agent/context/open.js';
import type { ContextManagerOptions, PreparedRequest } from '../../../src/agent/context/options.js';
import { checkInvariants } from '../../../src/agent/context/invariants.js';
import { loadCheckpoint } from '../../../src/agent/context/checkpoint.js';
import { PLACEHOLDER_PREFIX } from '../../../src/agent/context/blocks.js';
import type { ContextEvent, SummarizeRequest } from '../../../src/agent/context/types.js';
import { fakeEstimate } from '../../fakes/anthropic.js';
import { allText, filler, tempDir } from './helpers.js';

const SYSTEM = 'You are a careful coding agent.';
const TASK = 'Port src/parse.ts to a streaming parser. Keep Node 20 support.';
const SUMMARY = `<analysis>draft</analysis><summary>
## Goal
${TASK}
## Done
- steps so far
## Decisions
- streaming over DOM — inputs reach 2 GB
## Errors
- Error: ENOENT: no such file or directory, open 'fixtures/a.csv'
## Next step
Continue.
</summary>`;

function setup(extra: Partial<ContextManagerOptions> = {}) {
  const events: ContextEvent[] = [];
  const summaries: SummarizeRequest[] = [];
  let now = 1_700_000_000_000;
  const summarize = vi.fn(async (r: SummarizeRequest) => {
    summaries.push(r);
    return { text: SUMMARY };
  });
  const m = new ContextManager({
    window: { contextWindow: 20_000, maxOutputTokens: 2_000 },
    summarize,
    onEvent: (e) => events.push(e),
    clock: () => now,
    ...extra,
  });
  return { m, events, summaries, summarize, advance: (ms: number) => void (now += ms) };
}

/**
 * The model's count of a request, computed apart from the code under test: the fake API's rule,
 * ceil(JSON length of system + messages + tools / 4). JSON framing and escapes make it 2–10 % more
 * than the manager's own chars/4, so a request the manager calls fitting is checked by a figure it
 * did not produce.
 */
const apiCount = (r: { system?: PreparedRequest['system']; tools?: PreparedRequest['tools']; messages: MessageParam[] }) =>
  fakeEstimate({ ...(r.system !== undefined ? { system: r.system } : {}), ...(r.tools ? { tools: r.tools } : {}), messages: r.messages });

/** One model turn: prepare, answer with a tool call, add a result of `chars` characters. */
async function turn(
  m: ContextManager,
  i: number,
  chars: number,
  name = 'bash',
  input: Record<string, unknown> = { command: `step ${i}` },
): Promise<PreparedRequest> {
  const r = await m.prepareRequest({ system: SYSTEM });
  if (!r.ok) throw new Error(`turn ${i}: ${r.error.message}`);
  expect(r.value.tokens + r.value.maxTokens).toBeLessThanOrEqual(20_000);
  expect(apiCount(r.value) + r.value.maxTokens).toBeLessThanOrEqual(20_000); // by the model's count too
  expect(checkInvariants(r.value.messages)).toEqual([]);
  m.addAssistant([{ type: 'tool_use', id: `t${i}`, name, input }], { input_tokens: apiCount(r.value) });
  await m.addToolResults([{ tool_use_id: `t${i}`, content: `${filler(chars, `o${i}`)}\nresult ${i}` }]);
  return r.value;
}

const ofType = <T extends ContextEvent['type']>(events: ContextEvent[], type: T) =>
  events.filter((e): e is Extract<ContextEvent, { type: T }> => e.type === type);

describe('ContextManager', () => {
  const dirs: Array<() => void> = [];
  afterEach(() => dirs.splice(0).forEach((rm) => rm()));

  it('keeps every request within the window over a long session, compacting proactively at 85 %', async () => {
    const { m, events, summaries } = setup();
    m.addUser(TASK);
    for (let i = 0; i < 40; i++) await turn(m, i, 6000);
    const compactions = ofType(events, 'compaction');
    expect(compactions.length).toBeGreaterThanOrEqual(2);
    expect(compactions.every((c) => c.ok && c.trigger === 'proactive')).toBe(true);
    expect(compactions[0]?.beforeTokens).toBeGreaterThanOrEqual(0.85 * 18_000);
    // The summariser saw the history and the prompt, never more than fits.
    expect(JSON.stringify(summaries[0]?.messages)).toContain(TASK);
    for (const s of summaries) expect(apiCount(s) + s.maxTokens).toBeLessThanOrEqual(20_000);
    // After compaction: task verbatim, the summary (analysis stripped), newest turns intact.
    const text = allText(m.messages);
    expect(text).toContain(`<task>\\n${TASK}\\n</task>`);
    expect(text).toContain("open 'fixtures/a.csv'");
    expect(text).not.toContain('draft');
    expect(text).toContain('result 39');
    expect(m.health().compaction.count).toBe(compactions.length);
  });

  it('logs tokens, % of window, zone, velocity and turns until red each iteration', async () => {
    const { m, events } = setup();
    m.addUser(TASK);
    for (let i = 0; i < 6; i++) await turn(m, i, 8000);
    const its = ofType(events, 'iteration');
    expect(its).toHaveLength(6);
    const last = its[its.length - 1];
    expect(last).toMatchObject({ iteration: 6, zone: expect.stringMatching(/green|yellow|orange/) });
    expect(last?.velocity).toBeGreaterThan(1900); // ~2,000 tokens per turn
    expect(last?.velocity).toBeLessThan(2200);
    expect(last?.turnsUntilRed).toBeGreaterThan(0);
    expect(last?.pctOfWindow).toBeCloseTo((last?.tokens ?? 0) / 20_000, 5);
    expect(ofType(events, 'zone_change').map((e) => e.to)).toContain('yellow');
  });

  it('anchors on usage: the API figure plus chars/4 of what came after', async () => {
    const { m } = setup();
    m.addUser(TASK);
    const r = await m.prepareRequest({ system: SYSTEM });
    if (!r.ok) throw new Error('prepare');
    const first = r.value.tokens; // no anchor yet: chars/4 of the system prompt, plus the message and its framing
    expect(first).toBe(Math.ceil(SYSTEM.length / 4) + 4 + Math.ceil(TASK.length / 4));
    expect(first).toBe(8 + 4 + 16);
    m.addAssistant([{ type: 'text', text: 'a'.repeat(400) }], { input_tokens: 10, cache_read_input_tokens: first - 15, cache_creation_input_tokens: 5 });
    m.addUser('b'.repeat(400));
    const r2 = await m.prepareRequest({ system: SYSTEM });
    if (!r2.ok) throw new Error('prepare');
    expect(r2.value.tokens).toBe(first + 104 + 104); // two messages of 100 tokens + 4 framing each
    // The model counting 1.5× what chars/4 says: the anchor moves, new text is scaled up too.
    m.addAssistant([{ type: 'text', text: 'c'.repeat(400) }], { input_tokens: Math.round(r2.value.tokens * 1.5) });
    m.addUser('d'.repeat(400));
    const r3 = await m.prepareRequest({ system: SYSTEM });
    expect(r3.ok && r3.value.tokens).toBe(Math.round(r2.value.tokens * 1.5) + Math.ceil(208 * 1.5));
  });

  it('asks for an exact count only within 10 % of the limit: the compaction threshold, or the budget', async () => {
    for (const [tiers, limit] of [
      [{}, 0.85 * 18_000],
      [{ compaction: { enabled: false } }, 18_000],
    ] as const) {
      const answered: number[] = [];
      const countTokens = vi.fn(async (r: { system?: PreparedRequest['system']; messages: MessageParam[] }) => {
        const n = apiCount(r);
        answered.push(n);
        return n;
      });
      const { m, events } = setup({ countTokens, tiers });
      m.addUser(TASK);
      const requests: PreparedRequest[] = [];
      for (let i = 0; i < 16; i++) requests.push(await turn(m, i, 6000));
      const counts = ofType(events, 'exact_count');
      expect(counts.length).toBeGreaterThan(0);
      expect(countTokens).toHaveBeenCalledTimes(counts.length);
      // The API's figure replaces the estimate: what the request reports is what the API answered.
      expect(counts.map((c) => c.exact)).toEqual(answered);
      for (const c of counts) expect(c.estimate).toBeGreaterThanOrEqual(0.9 * limit);
      const exact = requests.filter((r) => r.exact);
      expect(exact.length).toBeGreaterThan(0);
      for (const r of exact) expect(answered).toContain(r.tokens);
      expect(ofType(events, 'iteration').filter((e) => e.tokens < 0.9 * limit && !e.exact).length).toBeGreaterThan(5);
    }
  });

  it('runs each tier at most once per iteration, also across the retry after an overflow', async () => {
    const { m, events } = setup();
    m.addUser(TASK);
    for (let i = 0; i < 3; i++) await turn(m, i, 500, 'grep', { pattern: `p${i}` });
    for (let i = 3; i < 6; i++) await turn(m, i, 500, 'grep', { pattern: `p${i}` }); // 6 searches: snip has work
    const r = await m.prepareRequest({ system: SYSTEM });
    expect(r.ok).toBe(true);
    const it = r.ok ? r.value.iteration : -1;
    const snips = () => ofType(events, 'tier').filter((e) => e.iteration === it && e.tier === 'snip').length;
    expect(snips()).toBe(1);
    expect((await m.onOverflow({ code: 'prompt_too_long', message: 'prompt is too long' })).action).toBe('retry');
    const again = await m.prepareRequest({ system: SYSTEM });
    expect(again.ok && again.value.iteration).toBe(it);
    expect(snips()).toBe(1);
  });

  it('repairs orphans in the stored history, not only in the request', async () => {
    const { m, events } = setup();
    m.addUser(TASK);
    m.addAssistant([{ type: 'tool_use', id: 'lost', name: 'bash', input: {} }]);
    // The loop died before adding the result; a stray result for an unknown call arrives.
    m.addUser([
      { type: 'tool_result', tool_use_id: 'ghost', content: 'x' },
      { type: 'text', text: 'continue' },
    ]);
    const r = await m.prepareRequest({ system: SYSTEM });
    expect(r.ok).toBe(true);
    expect(checkInvariants(m.messages as MessageParam[])).toEqual([]);
    expect(allText(m.messages)).not.toContain('ghost');
    expect(allText(m.messages)).toContain('"tool_use_id":"lost"');
    expect(ofType(events, 'invariants_repaired')[0]?.repairs.join('\n')).toMatch(
      /orphan_tool_result[\s\S]*missing_tool_result|missing_tool_result[\s\S]*orphan_tool_result/,
    );
  });

  it('reactive path: one compaction and a retry, then a clean give-up with the checkpoint saved', async () => {
    const t = tempDir();
    dirs.push(t.remove);
    const { m, events, summarize } = setup({ taskDir: t.dir, taskId: 'T1' });
    m.addUser(TASK);
    for (let i = 0; i < 8; i++) await turn(m, i, 4000);
    expect(await m.onOverflow(new Error('socket hang up'))).toEqual({ action: 'not_overflow' });
    const first = await m.onOverflow({
      code: 'prompt_too_long',
      message: '400 prompt is too long: 25000 tokens > 20000 maximum',
      promptTokens: { actual: 25_000, max: 20_000 },
    });
    expect(first).toEqual({ action: 'retry', compacted: true });
    expect(summarize).toHaveBeenCalledTimes(1);
    const retry = await m.prepareRequest({ system: SYSTEM });
    expect(retry.ok && retry.value.tokens).toBeLessThan(0.6 * 18_000);
    const second = await m.onOverflow({ stop_reason: 'model_context_window_exceeded' });
    expect(second.action).toBe('give_up');
    if (second.action !== 'give_up') return;
    expect(second.error.code).toBe('overflow');
    expect(second.checkpoint.jsonPath && existsSync(second.checkpoint.jsonPath)).toBe(true);
    expect(readFileSync(second.checkpoint.mdPath as string, 'utf8')).toContain(TASK);
    expect(summarize).toHaveBeenCalledTimes(1); // never a loop
    expect(ofType(events, 'overflow').map((e) => e.action)).toEqual(['retry', 'give_up']);
  });

  it('reactive path: evicts as well when the compaction did not shrink the request (a summary bigger than the head)', async () => {
    const { m, events } = setup({ summarize: async () => ({ text: SUMMARY.replace('Continue.', `Continue.\n${filler(48_000, 'long summary')}`) }) });
    m.addUser(TASK);
    for (let i = 0; i < 8; i++) await turn(m, i, 4000);
    const first = await m.onOverflow({
      code: 'prompt_too_long',
      message: '400 prompt is too long: 25000 tokens > 20000 maximum',
      promptTokens: { actual: 25_000, max: 20_000 },
    });
    expect(first).toEqual({ action: 'retry', compacted: true });
    expect(ofType(events, 'tier').some((e) => e.tier === 'evict')).toBe(true);
    // Whatever the retry becomes, it never goes over the window.
    const retry = await m.prepareRequest({ system: SYSTEM });
    if (retry.ok) expect(retry.value.tokens + retry.value.maxTokens).toBeLessThanOrEqual(20_000);
  });

  it('opens the circuit breaker after 3 failed compactions and still keeps requests in the window', async () => {
    const summarize = vi.fn(async () => {
      throw new Error('model unavailable');
    });
    const { m, events } = setup({ summarize });
    m.addUser(TASK);
    for (let i = 0; i < 30; i++) await turn(m, i, 4000);
    expect(summarize).toHaveBeenCalledTimes(3);
    expect(ofType(events, 'breaker_open')).toHaveLength(1);
    expect(m.health().compaction).toMatchObject({ failures: 3, breakerOpen: true, count: 0 });
    expect(ofType(events, 'tier').some((e) => e.tier === 'evict')).toBe(true);
    // A manual compaction is still tried (and fails here, as the model does).
    m.requestCompaction();
    await m.prepareRequest({ system: SYSTEM });
    expect(summarize).toHaveBeenCalledTimes(4);
  });

  it('clears old tool results after 5 idle minutes (microcompact, injected clock)', async () => {
    const { m, events, advance } = setup();
    m.addUser(TASK);
    for (let i = 0; i < 6; i++) await turn(m, i, 1000);
    advance(6 * 60_000);
    const r = await m.prepareRequest({ system: SYSTEM });
    expect(r.ok).toBe(true);
    expect(ofType(events, 'tier').find((e) => e.tier === 'microcompact')?.blocks).toBe(3);
    expect(allText(m.messages).split(PLACEHOLDER_PREFIX).length - 1).toBe(3);
  });

  it('saves large tool output to the task directory at execution', async () => {
    const t = tempDir();
    dirs.push(t.remove);
    const { m, events } = setup({ taskDir: t.dir });
    m.addUser(TASK);
    m.addAssistant([{ type: 'tool_use', id: 'big', name: 'bash', input: { command: 'cat log' } }]);
    const [stored] = await m.addToolResults([{ tool_use_id: 'big', content: filler(100_000) }]);
    const saved = ofType(events, 'persisted')[0];
    expect(saved?.path).toMatch(/tool-results\/\d+-bash-big\.txt$/);
    expect(readFileSync(saved?.path as string, 'utf8')).toBe(filler(100_000));
    expect(String(stored?.content)).toContain(saved?.path as string);
  });

  it('re-injects the notes after every compaction and puts them in the checkpoint', async () => {
    const t = tempDir();
    dirs.push(t.remove);
    const { m } = setup({ taskDir: t.dir });
    m.addUser(TASK);
    expect(m.notes.handle({ action: 'add', section: 'decisions', text: 'Chose sax over xml2js: 2 GB inputs' }).is_error).toBe(false);
    for (let i = 0; i < 30; i++) await turn(m, i, 6000);
    expect(m.health().compaction.count).toBeGreaterThanOrEqual(2);
    expect(allText(m.messages)).toContain('Chose sax over xml2js: 2 GB inputs');
    const cp = await loadCheckpoint(t.dir);
    expect(cp.ok && cp.value?.notes.decisions).toEqual(['Chose sax over xml2js: 2 GB inputs']);
    expect(cp.ok && cp.value?.decisions).toContain('Chose sax over xml2js: 2 GB inputs');
  });

  it('extracts memories from the compacted part in parallel', async () => {
    const seen: MessageParam[][] = [];
    let release: () => void = () => undefined;
    const extractMemories = vi.fn((ms: MessageParam[]) => {
      seen.push(ms);
      return new Promise<void>((r) => (release = r)); // still running after the compaction
    });
    const { m, events } = setup({ extractMemories });
    m.addUser(TASK);
    for (let i = 0; i < 16 && seen.length === 0; i++) await turn(m, i, 6000);
    expect(seen[0]?.[0]).toEqual({ role: 'user', content: TASK });
    expect(ofType(events, 'compaction')).toHaveLength(1);
    const settled = m.settle();
    release();
    await settled;
  });

  it('per-component accounting and health figures', async () => {
    const { m, events } = setup({ memories: 'The user prefers pnpm.\n'.repeat(400) });
    m.addUser(TASK);
    for (let i = 0; i < 16; i++) await turn(m, i, 5000, 'grep', { pattern: `p${i}` });
    const h = m.health(); // snip keeps the 3 newest searches: no compaction needed
    expect(Object.keys(h.components)).toEqual(['systemPrompt', 'toolDefinitions', 'history', 'toolResults', 'memories', 'outputReserve']);
    expect(h.components.outputReserve.tokens).toBe(2000);
    expect(h.components.memories).toMatchObject({ hard: 1600, soft: 1280 });
    expect(h.components.memories.tokens).toBeGreaterThan(h.components.memories.hard); // reported…
    expect(ofType(events, 'component_limit').some((e) => e.component === 'memories' && e.level === 'hard')).toBe(true);
    expect(h.toolResultShare).toBeGreaterThan(0.5);
    expect(h.compressionRatio).toBeGreaterThan(1);
    expect(h.evictionsTotal).toBeGreaterThan(0);
    expect(h.utilisation).toBeCloseTo(h.tokens / 18_000, 5);
    expect(h.tiers).toHaveProperty('prune');
  });

  it('appends memories to the system prompt, cut to their hard limit', async () => {
    const { m } = setup({ memories: 'line\n'.repeat(10_000) });
    m.addUser(TASK);
    const r = await m.prepareRequest({ system: SYSTEM });
    expect(r.ok && typeof r.value.system === 'string' && r.value.system.startsWith(`${SYSTEM}\n\n<memories>`)).toBe(true);
    expect(r.ok && String(r.value.system).length).toBeLessThan(1600 * 4 + 100);
  });

  it('returns context_full (and saves a checkpoint) when nothing can make the request fit', async () => {
    const t = tempDir();
    dirs.push(t.remove);
    const { m } = setup({ taskDir: t.dir });
    m.addUser(TASK);
    const r = await m.prepareRequest({ system: 's'.repeat(80_000) });
    expect(!r.ok && r.error.code).toBe('context_full');
    expect((await loadCheckpoint(t.dir)).ok).toBe(true);
  });

  it('resumes a lost task from its checkpoint and transcript', async () => {
    const t = tempDir();
    dirs.push(t.remove);
    const transcript: MessageParam[] = [];
    const { m } = setup({ taskDir: t.dir, taskId: 'T2' });
    const add = {
      user: (text: string) => {
        transcript.push({ role: 'user', content: text });
        m.addUser(text);
      },
    };
    add.user(TASK);
    m.notes.handle({ action: 'add', section: 'progress', text: 'parser half done' });
    for (let i = 0; i < 20; i++) {
      const r = await m.prepareRequest({ system: SYSTEM });
      if (!r.ok) throw new Error('prepare');
      const content = [{ type: 'tool_use' as const, id: `t${i}`, name: 'bash', input: { command: `step ${i}` } }];
      transcript.push({ role: 'assistant', content });
      m.addAssistant(content, { input_tokens: apiCount(r.value) });
      const results = [{ type: 'tool_result' as const, tool_use_id: `t${i}`, content: `${filler(6000)} result ${i}` }];
      transcript.push({ role: 'user', content: results });
      await m.addToolResults(results);
    }
    expect(m.messageCount).toBe(transcript.length);
    // The task is lost mid-call: the last tool_use never got its result.
    transcript.push({ role: 'assistant', content: [{ type: 'tool_use', id: 'cut', name: 'bash', input: { command: 'npm test' } }] });
    const cp = await loadCheckpoint(t.dir);
    if (!cp.ok || !cp.value) throw new Error('no checkpoint');
    expect(cp.value.keptFrom).toBeGreaterThan(0);
    const events: ContextEvent[] = [];
    const resumed = ContextManager.resume(cp.value, transcript, {
      window: m.window,
      summarize: async () => ({ text: SUMMARY }),
      taskDir: t.dir,
      onEvent: (e) => events.push(e),
    });
    if (!resumed.ok) throw new Error(resumed.error.message);
    const r = resumed.value;
    expect(checkInvariants(r.messages as MessageParam[])).toEqual([]);
    const text = allText(r.messages);
    expect(text).toContain(`<task>\\n${TASK}\\n</task>`);
    expect(text).toContain('parser half done');
    expect(text).toContain('result 19');
    expect(text).toContain('"tool_use_id":"cut"'); // answered as interrupted
    expect(ofType(events, 'resumed')[0]?.version).toBe(cp.value.version);
    const next = await r.prepareRequest({ system: SYSTEM });
    expect(next.ok).toBe(true);
    expect((await r.checkpoint()).checkpoint.version).toBe(cp.value.version + 1);
    const viaDir = await resumeTask(transcript, { window: m.window, summarize: async () => ({ text: SUMMARY }), taskDir: t.dir });
    expect(viaDir.ok && allText(viaDir.value.messages)).toBe(text);
    // A transcript shorter than the checkpoint says is refused.
    const short = ContextManager.resume(cp.value, transcript.slice(0, 3), { window: m.window, summarize: async () => ({ text: SUMMARY }) });
    expect(!short.ok && short.error.code).toBe('transcript_mismatch');
  });

  it('compacts only at a turn boundary: not when the history ends with the assistant (prefill)', async () => {
    const { m, summarize } = setup();
    m.addUser(TASK);
    for (let i = 0, u = 0; u < 0.75; i++) u = (await turn(m, i, 4000)).utilisation;
    expect(summarize).not.toHaveBeenCalled();
    m.addAssistant([{ type: 'text', text: `Let me think about ${filler(8000)}` }]); // prefill: continue this
    const r = await m.prepareRequest({ system: SYSTEM });
    expect(r.ok && r.value.utilisation).toBeGreaterThan(0.85);
    expect(summarize).not.toHaveBeenCalled();
    expect(r.ok && r.value.messages.at(-1)?.role).toBe('assistant');
  });

  it('tool results with images: the text is persisted, the images stay', async () => {
    const t = tempDir();
    dirs.push(t.remove);
    const { m } = setup({ taskDir: t.dir });
    m.addUser(TASK);
    m.addAssistant([{ type: 'tool_use', id: 'shot', name: 'screenshot', input: {} }]);
    const image = { type: 'image' as const, source: { type: 'base64' as const, media_type: 'image/png' as const, data: 'iVBORw0KGgo=' } };
    const [stored] = await m.addToolResults([{ tool_use_id: 'shot', content: [{ type: 'text', text: filler(50_000) }, image] }]);
    expect(Array.isArray(stored?.content) && stored.content.map((p) => p.type)).toEqual(['text', 'image']);
    expect(JSON.stringify(stored)).toContain('saved in full to');
  });

  it('resumes without a checkpoint: the transcript alone, the task still its first message', async () => {
    const transcript: MessageParam[] = [
      { role: 'user', content: TASK },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'x', name: 'bash', input: {} }] },
    ];
    const r = ContextManager.resume(undefined, transcript, {
      window: { contextWindow: 20_000, maxOutputTokens: 2_000 },
      summarize: async () => ({ text: SUMMARY }),
    });
    if (!r.ok) throw new Error(r.error.message);
    r.value.addUser('[resumed] check the state of the work first');
    expect((await r.value.checkpoint()).checkpoint.goal).toBe(TASK);
    expect(r.value.messageCount).toBe(3);
    const req = await r.value.prepareRequest({ system: SYSTEM });
    expect(req.ok && checkInvariants(req.value.messages)).toEqual([]);
    expect(req.ok && allText(req.value.messages)).toContain('interrupted'); // the cut-off call answered
  });

  it('rejects an impossible window at construction (a programming error)', () => {
    expect(() => new ContextManager({ window: { contextWindow: 1000, maxOutputTokens: 800 }, summarize: async () => ({ text: '' }) })).toThrow(RangeError);
  });
});
