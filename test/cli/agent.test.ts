/**
 * Agent tasks end to end: a real daemon whose environment points at the scripted fake Messages
 * server (streaming, through the real SDK), `nightshift agent` with an 8,000-token window, the run
 * as an ordinary task (output.log, show, wait, kill), its transcript, health, ingest, compaction on
 * request, resume after a kill, delegation, and a clear refusal without a model.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { TaskJson as Task } from '../../src/api/tasks.js';
import { COMPACT_SYSTEM } from '../../src/agent/context/index.js';
import {
  apiError,
  fakeEstimate,
  promptTooLong,
  reply,
  startFakeAnthropic,
  text,
  toolUse,
  type FakeAnthropic,
  type FakeStep,
  type RecordedRequest,
} from '../fakes/anthropic.js';
import { TestDaemon, until } from '../helpers/daemon.js';

const WINDOW = 8000;
const MAX_OUT = 1000;
const TASK = 'Write notes.txt with a greeting, check it, and count to 20000.';

const isSummary = (r: RecordedRequest) => r.body.system === COMPACT_SYSTEM;
const systemText = (r: RecordedRequest): string => (typeof r.body.system === 'string' ? r.body.system : JSON.stringify(r.body.system ?? ''));
const summaryReply = () => reply(`<analysis>draft</analysis><summary>\n## Goal\n${TASK}\n## Done\n- wrote notes.txt\n## Next step\nFinish.\n</summary>`);

describe('nightshift agent (fake Messages server, real daemon)', () => {
  const cleanups: Array<() => Promise<void> | void> = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });

  async function setup(step: FakeStep): Promise<{ fake: FakeAnthropic; d: TestDaemon; work: string }> {
    const fake = await startFakeAnthropic({ defaultStep: step });
    cleanups.push(() => fake.close());
    // Heuristic extraction: the fake answers the agent, not the memory extractor.
    const d = new TestDaemon({ memory: { extractor: 'heuristic' } }, { ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: 'sk-test-not-a-real-key' });
    cleanups.push(() => d.cleanup());
    await d.start();
    const work = mkdtempSync('/tmp/ns-agent-work-');
    cleanups.push(() => rmSync(work, { recursive: true, force: true }));
    return { fake, d, work };
  }

  const waitEnd = async (d: TestDaemon, id: string): Promise<Task> => {
    const r = await d.client.wait(id, 30);
    expect(r.timedOut, `task ${id} still running; log:\n${readOutput(d, id)}`).toBe(false);
    return r.task;
  };
  const readOutput = (d: TestDaemon, id: string): string => readFileSync(join(d.paths.tasksDir, id, 'output.log'), 'utf8');
  const startAgent = async (d: TestDaemon, args: string[]): Promise<string> => {
    const r = await d.cli(['agent', ...args]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^\d+\n$/);
    return r.stdout.trim();
  };
  const withinWindow = (fake: FakeAnthropic) => {
    expect(fake.requests.length).toBeGreaterThan(0);
    for (const r of fake.requests) expect(fakeEstimate(r.body) + r.body.max_tokens).toBeLessThanOrEqual(WINDOW);
  };

  it('runs a scripted session as a task: tools, a large output saved to disk, an overflow compacted and retried, then done', async () => {
    let main = 0;
    const step: FakeStep = (r) => {
      if (isSummary(r)) return summaryReply();
      main++;
      switch (main) {
        case 1:
          return reply([text('Let me look around first.'), toolUse('bash', { command: 'echo "hello from bash, key=${ANTHROPIC_API_KEY:-none}" && pwd' })]);
        case 2:
          return reply([toolUse('write_file', { path: 'notes.txt', content: 'Hello, nightshift!\n' })]);
        case 3:
          return reply([toolUse('read_file', { path: 'notes.txt' })]);
        case 4:
          return reply([text('Now the big one.'), toolUse('bash', { command: 'seq 1 20000' })]);
        case 5:
          return reply([toolUse('bash', { command: 'seq 1 1200' })]); // ~5 KB: kept in the context whole
        case 6:
          return promptTooLong(9_100, WINDOW); // the estimate was wrong: the API refuses the request
        default:
          return reply('All done: notes.txt holds the greeting and the count ran to 20000.');
      }
    };
    const { fake, d, work } = await setup(step);
    const memory = await d.client.remember({ content: 'Always keep greetings in notes.txt short.', project: work, type: 'preference', stable: true });
    const id = await startAgent(d, ['--cwd', work, '--context-window', String(WINDOW), '--max-output-tokens', String(MAX_OUT), '--', TASK]);
    const task = await waitEnd(d, id);
    const log = readOutput(d, id);
    expect(task.status, log).toBe('exited');
    expect(task.status === 'exited' && task.exitCode, log).toBe(0);
    expect(readFileSync(join(work, 'notes.txt'), 'utf8')).toBe('Hello, nightshift!\n');

    // The log reads as an account of the run.
    expect(log).toMatch(/^● agent task \d+ · claude-sonnet-4-6 · window 8,000 tokens \(max output 1,000\)/);
    expect(log).toContain('▸ assistant: Let me look around first.');
    expect(log).toMatch(/⚙ bash\(echo "hello from bash, key=\$\{ANTHROPIC_API_KEY:-none\}" && pwd\) → \d+ B\n/);
    expect(log).toMatch(/⚙ write_file\(notes\.txt, 19 B\) → \d+ B\n/);
    expect(log).toMatch(/⚙ read_file\(notes\.txt\) → \d+ B\n/);
    expect(log).toMatch(/⚙ bash\(seq 1 20000\) → 106\.\d KB\n/);
    expect(log).toMatch(/◆ context: tool output saved to disk \(106\.\d KB\): .*tool-results\/.*\.txt/);
    expect(log).toMatch(/◆ context: turn \d+ · [\d,]+ tokens.* · \d+% of window · (green|yellow|orange|red)/);
    expect(log).toMatch(/◆ context: compacted \(reactive\): [\d,]+ → [\d,]+ tokens/);
    expect(log).toMatch(/◆ context: overflow \(prompt_too_long\) → compacted, retrying/);
    expect(log).toMatch(/◆ health: [\d,]+\/7,000 input tokens/);
    expect(log).toMatch(/✔ done after 6 turns/);
    expect(log).not.toContain('sk-test-not-a-real-key');

    // Streaming, within the window, the refused request retried smaller after the compaction.
    const mains = fake.requests.filter((r) => !isSummary(r));
    expect(mains.length).toBe(7);
    expect(fake.requests.every((r) => r.stream)).toBe(true);
    expect(fake.requests.filter(isSummary).length).toBeGreaterThanOrEqual(1);
    withinWindow(fake);
    expect(fakeEstimate((mains[6] as RecordedRequest).body)).toBeLessThan(fakeEstimate((mains[5] as RecordedRequest).body));
    expect(JSON.stringify(mains[6]?.body.messages)).toContain(TASK);
    // The system prompt names the task; the secret never reaches a request body (it is a header).
    expect(systemText(mains[0] as RecordedRequest)).toContain(`task ${id}`);
    expect(systemText(mains[0] as RecordedRequest)).toMatch(new RegExp(`<memories>\\n[^]*${memory.content}[^]*</memories>`));
    expect(log).toMatch(/● memories: 1 recalled for the project \(\d+ tokens\)/);
    expect(mains[0]?.body.tools?.map((t) => ('name' in t ? t.name : t.type))).toEqual(
      expect.arrayContaining([
        'bash',
        'read_file',
        'write_file',
        'edit_file',
        'grep',
        'glob',
        'task_output',
        'memory_recall',
        'memory_remember',
        'delegate',
        'notes',
      ]),
    );
    expect(fake.requests.some((r) => r.raw.includes('sk-test-not-a-real-key'))).toBe(false);
    expect(mains[0]?.headers['x-api-key']).toBe('sk-test-not-a-real-key'); // the daemon's key
    expect(JSON.stringify(mains[1]?.body.messages)).toContain('hello from bash, key=none'); // never the commands'

    // Files in the task directory.
    const dir = join(d.paths.tasksDir, id);
    const lines = readFileSync(join(dir, 'transcript.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { role: string; id: string; timestamp: string; content: unknown });
    expect(lines[0]).toMatchObject({ role: 'user', content: TASK, id: `${id}-1` });
    expect(lines.map((l) => l.role)).toEqual([
      'user',
      'assistant',
      'user',
      'assistant',
      'user',
      'assistant',
      'user',
      'assistant',
      'user',
      'assistant',
      'user',
      'assistant',
    ]);
    expect(lines.every((l) => !Number.isNaN(Date.parse(l.timestamp)))).toBe(true);
    expect(existsSync(join(dir, 'context', 'checkpoint.json'))).toBe(true);
    expect(existsSync(join(dir, 'context', 'checkpoint.md'))).toBe(true);
    // The key is in no file of the task and in no daemon log line.
    for (const f of readdirSync(dir, { recursive: true, encoding: 'utf8' })) {
      const p = join(dir, f);
      if (statSync(p).isFile()) expect(readFileSync(p, 'utf8'), f).not.toContain('sk-test-not-a-real-key');
    }
    expect(d.log).not.toContain('sk-test-not-a-real-key');

    // show --json: the agent part with the context's health and the result.
    const shown = await d.cli(['show', id, '--json']);
    const t = JSON.parse(shown.stdout) as Task;
    expect(t.agent).toMatchObject({ model: 'claude-sonnet-4-6', contextWindow: WINDOW, maxOutputTokens: MAX_OUT, prompt: TASK, compactRequested: false });
    expect(t.agent?.health).toMatchObject({
      contextWindow: WINDOW,
      inputBudget: WINDOW - MAX_OUT,
      compaction: expect.objectContaining({ count: expect.any(Number) }),
    });
    expect(t.agent?.health?.tokens).toBeLessThanOrEqual(WINDOW - MAX_OUT);
    expect(t.agent?.result).toMatchObject({ ok: true, code: 'done', turns: 6, summary: 'All done: notes.txt holds the greeting and the count ran to 20000.' });
    expect((await d.cli(['show', id])).stdout).toMatch(/agent:\s+claude-sonnet-4-6 · window 8000/);

    // The session was handed to the memory ingest like any other.
    const sessions = await until(async () => {
      const s = (await d.client.sessions()).filter((x) => x.sessionId === `nightshift-agent-${id}`);
      return s.length > 0 && s[0]?.state === 'ingested' ? s : undefined;
    });
    expect(sessions[0]?.path).toBe(join(dir, 'transcript.jsonl'));
    expect((await d.cli(['sessions'])).stdout).toContain(`nightshift-agent-${id}`);
  });

  it('compacts a running agent on `nightshift compact ID`, at its next turn boundary', async () => {
    let main = 0;
    // The third turn's command waits for this file: the run stays in that turn until the test has
    // asked for the compaction and seen it recorded, however slow the machine (no race with a sleep).
    let gate = '';
    const step: FakeStep = (r) => {
      if (isSummary(r)) return summaryReply();
      main++;
      if (main <= 2) return reply([toolUse('bash', { command: `echo step ${main}` })]);
      if (main === 3) return reply([toolUse('bash', { command: `while [ ! -e ${gate} ]; do sleep 0.05; done; echo slept` })]);
      return reply('Finished after the compaction.');
    };
    const { fake, d, work } = await setup(step);
    gate = join(work, '.compact-gate');
    const id = await startAgent(d, ['--cwd', work, '--context-window', String(WINDOW), '--max-output-tokens', String(MAX_OUT), '--', TASK]);
    await until(() => main >= 3, 15_000); // the model asked for the gated command: the run is in that turn now
    const r = await d.cli(['compact', id]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(`agent task ${id} will compact its context at its next turn boundary\n`);
    expect(JSON.parse((await d.cli(['show', id, '--json'])).stdout).agent.compactRequested).toBe(true);
    writeFileSync(gate, '');
    const task = await waitEnd(d, id);
    const log = readOutput(d, id);
    expect(task.status === 'exited' && task.exitCode, log).toBe(0);
    expect(log).toContain('◆ context: compaction requested (nightshift compact)');
    expect(log).toMatch(/◆ context: compacted \(manual\)/);
    expect(fake.requests.filter(isSummary).length).toBe(1);
    withinWindow(fake);
    // Not running any more: refused with what to do instead.
    const late = await d.cli(['compact', id]);
    expect(late.code).toBe(1);
    expect(late.stderr).toMatch(/is not running \(it is exited\); `nightshift agent --resume \d+` continues it/);
    const plain = await d.cli(['run', '--', 'true']);
    const notAgent = await d.cli(['compact', plain.stdout.trim()]);
    expect(notAgent.stderr).toMatch(/is not an agent task/);
  });

  it('resumes a killed agent task in a new task from its transcript and checkpoint', async () => {
    let main = 0;
    const step: FakeStep = (r) => {
      if (isSummary(r)) return summaryReply();
      main++;
      if (main === 1) return reply([text('Starting a long command.'), toolUse('bash', { command: 'sleep 30', timeout_seconds: 60 })]);
      return reply('Resumed and finished.');
    };
    const { fake, d, work } = await setup(step);
    const id = await startAgent(d, ['--cwd', work, '--context-window', String(WINDOW), '--max-output-tokens', String(MAX_OUT), '--', TASK]);
    // The bash call is a task of its own, waited on in the foreground.
    const sleeper = await until(async () => (await d.client.list()).find((t) => t.name?.startsWith(`agent ${id} bash: sleep 30`)));
    expect((await d.cli(['kill', id])).code).toBe(0);
    const killed = await waitEnd(d, id);
    expect(killed.status, readOutput(d, id)).toBe('killed');
    expect(readOutput(d, id)).toContain(`✖ stopped by SIGTERM; the transcript and checkpoint are kept: \`nightshift agent --resume ${id}\` continues the task`);
    expect((await waitEnd(d, sleeper.id)).status).toBe('killed'); // its foreground command went with it

    const r = await d.cli(['agent', '--resume', id]);
    expect(r.code, r.stderr).toBe(0);
    const next = r.stdout.trim();
    expect(next).not.toBe(id);
    const done = await waitEnd(d, next);
    const log = readOutput(d, next);
    expect(done.status === 'exited' && done.exitCode, log).toBe(0);
    expect(log).toMatch(new RegExp(`● resumed from task ${id}: \\d+ earlier messages`));
    const last = fake.requests.filter((x) => !isSummary(x)).at(-1) as RecordedRequest;
    const sent = JSON.stringify(last.body.messages);
    expect(sent).toContain(TASK);
    expect(sent).toContain('sleep 30');
    expect(sent).toContain('is resumed now');
    const shown = JSON.parse((await d.cli(['show', next, '--json'])).stdout) as Task;
    expect(shown.agent).toMatchObject({ resumedFrom: id, prompt: TASK, result: { ok: true } });
    expect(shown.cwd).toBe(work);
    expect(existsSync(join(d.paths.tasksDir, next, 'resumed.jsonl'))).toBe(true);
    // Only the new messages are in the new transcript (the old ones were ingested with the old task).
    const own = readFileSync(join(d.paths.tasksDir, next, 'transcript.jsonl'), 'utf8')
      .trim()
      .split('\n');
    expect(own.length).toBe(2);
    // A running or non-agent task cannot be resumed.
    const plain = await d.cli(['run', '--', 'sleep', '5']);
    const notAgent = await d.cli(['agent', '--resume', plain.stdout.trim()]);
    expect(notAgent.stderr).toMatch(/is not an agent task/);
  });

  it('gives up cleanly when the retry overflows too, and on a 400; the SDK retries an overloaded API', async () => {
    const steps: FakeStep[] = [
      reply([toolUse('bash', { command: 'echo one' })]),
      reply([toolUse('bash', { command: 'echo two' })]),
      promptTooLong(9_000, WINDOW),
      promptTooLong(9_000, WINDOW), // the retry, after the reactive compaction
    ];
    const { fake, d, work } = await setup((r) => (isSummary(r) ? summaryReply() : (steps.shift() ?? reply('unexpected'))));
    const id = await startAgent(d, ['--cwd', work, '--context-window', String(WINDOW), '--max-output-tokens', String(MAX_OUT), '--', TASK]);
    const task = await waitEnd(d, id);
    const log = readOutput(d, id);
    expect(task.status === 'exited' && task.exitCode, log).toBe(1);
    expect(log).toMatch(/◆ context: overflow \(prompt_too_long\) again → giving up/);
    expect(log).toMatch(/✖ gave up after 2 turns: overflow: the context overflowed again after a reactive compaction: .*prompt is too long/);
    expect((await d.cli(['wait', id])).code).toBe(1);
    const shown = JSON.parse((await d.cli(['show', id, '--json'])).stdout) as Task;
    expect(shown.agent?.result).toMatchObject({ ok: false, code: 'overflow', turns: 2 });
    expect(existsSync(join(d.paths.tasksDir, id, 'context', 'checkpoint.json'))).toBe(true);
    expect(steps).toEqual([]); // no request after giving up
    withinWindow(fake);

    // Overloaded: retried by the SDK. A 400: not retried, the run ends with the API's words.
    fake.setDefault((r) => (isSummary(r) ? summaryReply() : apiError(400, 'tools.0.input_schema: bad schema')));
    fake.push({ status: 529, message: 'Overloaded' });
    const before = fake.requests.length;
    const id2 = await startAgent(d, ['--cwd', work, '--context-window', String(WINDOW), '--max-output-tokens', String(MAX_OUT), '--', TASK]);
    const t2 = await waitEnd(d, id2);
    const log2 = readOutput(d, id2);
    expect(t2.status === 'exited' && t2.exitCode, log2).toBe(1);
    expect(fake.requests.length - before).toBe(2);
    expect(log2).toMatch(/✖ gave up after 0 turns: model_error: the model request failed \(bad_request\): 400 tools\.0\.input_schema: bad schema/);
  });

  it('keeps running across a daemon restart: tool calls wait for the daemon to be back', async () => {
    let main = 0;
    const step: FakeStep = () => {
      main++;
      if (main === 1) return reply([toolUse('bash', { command: 'sleep 1.5; echo survived the restart' })]);
      return reply('Finished.');
    };
    const { d, work } = await setup(step);
    const id = await startAgent(d, ['--cwd', work, '--context-window', String(WINDOW), '--max-output-tokens', String(MAX_OUT), '--', TASK]);
    await until(async () => (await d.client.list()).some((t) => t.name?.startsWith(`agent ${id} bash:`)));
    await d.restart();
    const task = await waitEnd(d, id);
    const log = readOutput(d, id);
    expect(task.status === 'exited' && task.exitCode, log).toBe(0);
    expect(log).toMatch(/⚙ bash\(sleep 1\.5; echo survived the restart\) → 34 B\n/);
    expect(log).toContain('✔ done after 2 turns');
  });

  it('delegates a focused sub-task to a sub-agent task and gets back only its summary', async () => {
    const step: FakeStep = (r) => {
      if (isSummary(r)) return summaryReply();
      const sys = systemText(r);
      if (sys.includes('You are a sub-agent of agent task')) return reply('SUBAGENT SUMMARY: the config lives in src/config.ts.');
      const msgs = JSON.stringify(r.body.messages);
      if (!msgs.includes('tool_result')) return reply([toolUse('delegate', { task: 'Find where the configuration is loaded and report the file.' })]);
      return reply('Parent done.');
    };
    const { d, work } = await setup(step);
    const id = await startAgent(d, ['--cwd', work, '--context-window', String(WINDOW), '--max-output-tokens', String(MAX_OUT), '--', 'Find the config.']);
    const task = await waitEnd(d, id);
    const log = readOutput(d, id);
    expect(task.status === 'exited' && task.exitCode, log).toBe(0);
    const child = (await d.client.list(true)).find((t) => t.name?.startsWith(`agent ${id} delegate:`));
    expect(child).toBeDefined();
    const shown = JSON.parse((await d.cli(['show', child?.id as string, '--json'])).stdout) as Task;
    expect(shown.agent).toMatchObject({ parent: id, result: { ok: true, summary: 'SUBAGENT SUMMARY: the config lives in src/config.ts.' } });
    const transcript = readFileSync(join(d.paths.tasksDir, id, 'transcript.jsonl'), 'utf8');
    expect(transcript).toContain(`[sub-agent task ${child?.id}: done after 1 turn]\\nSUBAGENT SUMMARY: the config lives in src/config.ts.`);
    expect(log).toMatch(/⚙ delegate\(Find where the configuration is loaded and report the file\.\) → \d+ B/);
  });

  it('refuses at once, with what to do, when the daemon has no model', async () => {
    const d = new TestDaemon({}, { ANTHROPIC_API_KEY: '', ANTHROPIC_AUTH_TOKEN: '', ANTHROPIC_BASE_URL: '' });
    cleanups.push(() => d.cleanup());
    await d.start();
    const started = Date.now();
    const r = await d.cli(['agent', '--', 'do something']);
    expect(Date.now() - started).toBeLessThan(5000);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^nightshift: agent tasks need a model, and the daemon has none: set ANTHROPIC_API_KEY \(or ANTHROPIC_BASE_URL/);
    expect(await d.client.list(true)).toEqual([]);
    // Bad input is a usage error before any of that.
    const empty = await d.cli(['agent']);
    expect(empty.code).toBe(2);
    expect(empty.stderr).toMatch(/no task given/);
  });
});
