import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { IngestSummary, ReextractResponse, SessionRecord } from '../../src/api/memory.js';
import type { DoctorResponse, UsageResponse } from '../../src/api/model-usage.js';
import { reply, startFakeAnthropic, toolUse, type FakeAnthropic } from '../fakes/anthropic.js';
import { TestDaemon } from '../helpers/daemon.js';
import { writeClaudeTranscript } from '../helpers/transcripts.js';

const KEY = 'sk-ant-api03-usageusageusageusageusageusageusage-AAAA';
let fake: FakeAnthropic | undefined;
let daemon: TestDaemon | undefined;
let dir: string | undefined;
afterEach(async () => {
  await daemon?.cleanup();
  await fake?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
  daemon = fake = dir = undefined;
});

const config = (budget: number) => ({ logLevel: 'debug', transcripts: { watch: false }, memory: { dailyTokenBudget: budget } });

async function setUp(budget: number): Promise<TestDaemon> {
  fake = await startFakeAnthropic({ defaultStep: reply([toolUse('record_memories', { memories: [] })], { usage: { input_tokens: 1000, output_tokens: 50 } }) });
  dir = mkdtempSync('/tmp/ns-usage-');
  daemon = new TestDaemon(config(budget), { ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: KEY });
  await daemon.start();
  return daemon;
}

function session(name: string): string {
  const file = join(dir as string, `${name}.jsonl`);
  writeClaudeTranscript(file, [{ role: 'user', text: `We always squash-merge pull requests (${name}).` }], { sessionId: name, cwd: dir as string });
  return file;
}

const json = async <T>(d: TestDaemon, args: string[]): Promise<T> => {
  const r = await d.cli(args);
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as T;
};

describe('the usage ledger and the daily token budget', () => {
  it('counts model extractions; past the budget the heuristics extract (daily_budget on the session) until reextract --fallen-back', async () => {
    const d = await setUp(1500);
    const a = await json<IngestSummary>(d, ['ingest', session('s-a'), '--json']);
    const b = await json<IngestSummary>(d, ['ingest', session('s-b'), '--json']);
    expect([a.extractor, b.extractor]).toEqual(['model', 'model']); // 1,050 spent before b: still room
    const c = await json<IngestSummary>(d, ['ingest', session('s-c'), '--json']);
    expect(c.extractor).toBe('heuristic');
    expect(c.fallback).toMatch(/^daily_budget: /);
    expect(fake?.requests).toHaveLength(2);
    const sessions = await json<SessionRecord[]>(d, ['sessions', '--json']);
    expect(sessions.find((s) => s.sessionId === 's-c')?.fallback).toMatch(/^daily_budget/);
    expect(sessions.find((s) => s.sessionId === 's-a')?.fallback).toBeUndefined();

    const usage = await json<UsageResponse>(d, ['usage', '--json']);
    expect(usage.budget).toEqual({ dailyTokens: 1500, spentToday: 2100 });
    expect(usage.days).toHaveLength(1);
    expect(usage.days[0]?.rows).toEqual([
      { backend: 'anthropic', purpose: 'extract', calls: 2, inputTokens: 2000, outputTokens: 100, fallbacks: { daily_budget: 1 } },
    ]);
    const text = (await d.cli(['usage'])).stdout;
    expect(text).toMatch(/anthropic\s+extract\s+2\s+2000\s+100\s+-\s+daily_budget 1/);
    expect(text).toContain('spent, heuristics until tomorrow');

    // Kept across a restart.
    await d.restart();
    expect((await json<UsageResponse>(d, ['usage', '--json'])).days[0]?.rows[0]?.calls).toBe(2);

    // A larger budget (applied by reload), then only the fallen-back session is extracted again, by the model.
    writeFileSync(d.paths.configFile, JSON.stringify(config(100_000)));
    expect((await d.cli(['reload'])).code).toBe(0);
    const re = await json<ReextractResponse>(d, ['memories', 'reextract', '--fallen-back', '--project', dir as string, '--json']);
    expect(re.sessions.map((s) => [s.sessionId, s.extractor])).toEqual([['s-c', 'model']]);
    expect(fake?.requests).toHaveLength(3);
    expect((await json<SessionRecord[]>(d, ['sessions', '--json'])).find((s) => s.sessionId === 's-c')?.fallback).toBeUndefined();
  });

  it('doctor: the extractor and why, the budget, never a credential', async () => {
    const d = await setUp(1000);
    await d.cli(['ingest', session('s-d'), '--json']);
    const r = await d.cli(['doctor', '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).not.toContain(KEY);
    expect(r.stdout).not.toContain(fake?.url);
    const doc = JSON.parse(r.stdout) as DoctorResponse & { ok: boolean };
    expect(doc.ok).toBe(true);
    expect(doc.extractor).toMatchObject({ configured: 'auto', active: expect.stringContaining('model') });
    expect(doc.extractor.why).toContain('ANTHROPIC_API_KEY, ANTHROPIC_BASE_URL are set');
    expect(doc.reviewer.active).toMatch(/^anthropic /);
    expect(doc.env).toEqual({ ANTHROPIC_API_KEY: true, ANTHROPIC_AUTH_TOKEN: false, ANTHROPIC_BASE_URL: true });
    expect(doc.budget).toEqual({ dailyTokens: 1000, spentToday: 1050 });
    expect(doc.checks.find((c) => c.name === 'daily budget')).toMatchObject({ ok: false, blocking: false });
    const text = await d.cli(['doctor']);
    expect(text.stdout).toContain('1050 of 1000 tokens spent today');
    expect(text.stdout).not.toContain(KEY);
  });
});
