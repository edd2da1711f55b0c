import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { DreamReport } from '../../src/api/dream.js';
import type { Memory } from '../../src/api/memory.js';
import { fileFor } from '../../src/memory/memory-file.js';
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

/** The fake model: rewords every cluster, and calls every pair "distinct". */
function verdicts(req: RecordedRequest) {
  const body = JSON.stringify(req.body.messages);
  const clusters = [...body.matchAll(/cluster (c\d+)/g)].map((m) => ({ key: m[1], text: 'Canonical: the API server listens on port 8080.' }));
  const pairs = [...body.matchAll(/pair (p\d+)/g)].map((m) => ({ key: m[1], verdict: 'distinct' }));
  return reply([toolUse('record_verdicts', { clusters, pairs })], { usage: { input_tokens: 900, output_tokens: 40 } });
}

async function seeded(budget: number): Promise<TestDaemon> {
  fake = await startFakeAnthropic({ defaultStep: verdicts });
  dir = mkdtempSync('/tmp/ns-review-');
  daemon = new TestDaemon({ dream: { schedule: false, tokenBudget: budget } }, { ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: 'sk-test-0000' });
  const project = dir;
  const base = { type: 'fact', scope: 'project', project, stable: true, pinned: false, importance: 0.6, reinforcements: 0, sources: [], origin: 'import' };
  const memories = [
    { content: 'The API server listens on port 8080.', createdAt: daysAgo(5), lastSeenAt: daysAgo(5) },
    { content: 'the api server listens on port 8080', createdAt: daysAgo(4), lastSeenAt: daysAgo(4) },
    { content: 'Postgres runs on port 5432 in the dev stack.', createdAt: daysAgo(20), lastSeenAt: daysAgo(20) },
    { content: 'Postgres runs on port 5433 in the dev stack.', createdAt: daysAgo(2), lastSeenAt: daysAgo(2) },
  ].map((m, i) => ({ ...base, id: `m${String(i + 1).padStart(12, '0')}`, ...m }));
  const file = fileFor(daemon.paths.memoryDir, { scope: 'project', project });
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify({ version: 1, namespace: { scope: 'project', project }, memories }));
  await daemon.start();
  return daemon;
}

describe('dream with a model (fake Messages API through the real SDK)', () => {
  it('takes the model’s wording and verdicts and stays within the token budget', async () => {
    const d = await seeded(200_000);
    const r = JSON.parse((await d.cli(['dream', '--json'])).stdout) as DreamReport;
    expect(r.phases.consolidate.modelBatches).toBe(1);
    expect(r.tokens).toEqual({ input: 900, output: 40, budget: 200_000 });
    expect(r.merges[0]?.text).toBe('Canonical: the API server listens on port 8080.');
    // The model said the two ports are distinct facts: the heuristic supersession is withdrawn.
    expect(r.supersessions).toHaveLength(0);
    expect(fake?.requests[0]?.body.stream).toBe(true);
    const all = (await d.cli(['memories', 'export'])).stdout.trim().split('\n').map((l) => JSON.parse(l) as Memory);
    expect(all.find((m) => m.id === r.merges[0]?.into)?.content).toBe('Canonical: the API server listens on port 8080.');
  });

  it('sends nothing past the budget and lets the heuristics decide', async () => {
    const d = await seeded(100);
    const r = JSON.parse((await d.cli(['dream', '--json'])).stdout) as DreamReport;
    expect(fake?.requests).toHaveLength(0);
    expect(r.tokens?.input).toBe(0);
    expect(r.supersessions).toHaveLength(1);
  });
});
