import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { DreamReport } from '../../src/api/dream.js';
import type { Memory } from '../../src/api/memory.js';
import type { UsageResponse } from '../../src/api/model-usage.js';
import { fileFor } from '../../src/memory/store/memory-file.js';
import { reply, startFakeAnthropic, toolUse, type FakeAnthropic, type RecordedRequest } from '../fakes/anthropic.js';
import { TestDaemon } from '../helpers/daemon.js';

let fake: FakeAnthropic | undefined;
let daemon: TestDaemon | undefined;
let dir: string | undefined;
afterEach(async () => {
  await daemon?.cleanup();
  await fake?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
  daemon = fake = dir = undefined;
});

const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString();

/** The fake model reads each pair: the same port on both sides is the same fact, anything else distinct. */
function verdicts(req: RecordedRequest) {
  const body = (req.body.messages as { content: string }[]).map((m) => m.content).join('\n');
  const pairs = [...body.matchAll(/pair (p\d+):\n {2}earlier: (.+)\n {2}later: (.+)/g)].map((m) => ({
    key: m[1],
    verdict: /8080/.test(m[2] ?? '') && /8080/.test(m[3] ?? '') ? 'same' : 'distinct',
  }));
  return reply([toolUse('record_verdicts', { pairs })], { usage: { input_tokens: 900, output_tokens: 40 } });
}

async function seeded(budget: number, memory: Record<string, unknown> = {}): Promise<TestDaemon> {
  fake = await startFakeAnthropic({ defaultStep: verdicts });
  dir = mkdtempSync('/tmp/ns-review-');
  daemon = new TestDaemon({ dream: { schedule: false, tokenBudget: budget }, memory }, { ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: 'sk-test-0000' });
  const project = dir;
  const base = { type: 'fact', scope: 'project', project, stable: true, pinned: false, importance: 0.6, reinforcements: 0, sources: [], origin: 'import' };
  // A paraphrase the analysis cannot tell is one (different slots), and a pair that differs in one word.
  const memories = [
    { content: 'The API server listens on port 8080.', createdAt: daysAgo(5), lastSeenAt: daysAgo(5) },
    { content: 'Port 8080 is where the API server accepts connections.', createdAt: daysAgo(4), lastSeenAt: daysAgo(4) },
    { content: 'Always deploy the frontend app to the staging cluster.', createdAt: daysAgo(20), lastSeenAt: daysAgo(20) },
    { content: 'Always deploy the backend app to the staging cluster.', createdAt: daysAgo(2), lastSeenAt: daysAgo(2) },
  ].map((m, i) => ({ ...base, id: `m${String(i + 1).padStart(12, '0')}`, ...m }));
  const file = fileFor(daemon.paths.memoryDir, { scope: 'project', project });
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify({ version: 1, namespace: { scope: 'project', project }, memories }));
  await daemon.start();
  return daemon;
}

describe('dream with a model (fake Messages API through the real SDK)', () => {
  it('asks the model about pairs that read alike, merges what it calls the same, never rewording, within the budget', async () => {
    const d = await seeded(200_000);
    const r = JSON.parse((await d.cli(['dream', '--json'])).stdout) as DreamReport;
    expect(r.phases.consolidate.modelBatches).toBe(1);
    expect(r.tokens).toEqual({ input: 900, output: 40, budget: 200_000 });
    expect(fake?.requests[0]?.body.stream).toBe(true);
    const asked = JSON.stringify(fake?.requests[0]?.body.messages);
    expect(asked).toContain('accepts connections');
    // The older statement keeps its own words and takes the paraphrase in.
    expect(r.merges).toEqual([expect.objectContaining({ into: 'm000000000001', merged: ['m000000000002'], text: 'The API server listens on port 8080.' })]);
    expect(r.supersessions).toHaveLength(0);
    const all = (await d.cli(['memories', 'export'])).stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Memory);
    expect(all.find((m) => m.id === 'm000000000001')?.content).toBe('The API server listens on port 8080.');
    // The frontend and the backend rule differ in one word: both stand.
    for (const id of ['m000000000003', 'm000000000004']) expect(all.find((m) => m.id === id)?.supersededBy).toBeUndefined();
  });

  it('sends nothing past the budget, and without a verdict keeps apart what the analysis cannot tell is one', async () => {
    const d = await seeded(100);
    const r = JSON.parse((await d.cli(['dream', '--json'])).stdout) as DreamReport;
    expect(fake?.requests).toHaveLength(0);
    expect(r.tokens?.input).toBe(0);
    expect(r.merges).toEqual([]);
    expect(r.supersessions).toEqual([]);
  });

  it('counts review calls in the usage ledger; with the daily budget spent it asks nothing', async () => {
    const d = await seeded(200_000);
    await d.cli(['dream', '--json']);
    const usage = JSON.parse((await d.cli(['usage', '--json'])).stdout) as UsageResponse;
    expect(usage.days[0]?.rows).toEqual([{ backend: 'anthropic', purpose: 'review', calls: 1, inputTokens: 900, outputTokens: 40, fallbacks: {} }]);
    await daemon?.cleanup();
    await fake?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });

    const spent = await seeded(200_000, { dailyTokenBudget: 0 });
    const r = JSON.parse((await spent.cli(['dream', '--json'])).stdout) as DreamReport;
    expect(fake?.requests).toHaveLength(0);
    expect(r.merges).toEqual([]);
    const after = JSON.parse((await spent.cli(['usage', '--json'])).stdout) as UsageResponse;
    expect(after.days[0]?.rows).toEqual([
      { backend: 'anthropic', purpose: 'review', calls: 0, inputTokens: 0, outputTokens: 0, fallbacks: { daily_budget: 1 } },
    ]);
  });
});
