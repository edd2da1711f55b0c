/**
 * End to end: a daemon with memory.extractor "codex-cli" ingests a transcript through the real
 * `codex exec` (pinned devDependency) talking to the fake Responses API (the provider given in
 * memory.codexConfig, as a person with their own provider would), and lists the model's memories;
 * the session records the call's tokens and the ledger counts it. A failing answer falls back.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { IngestSummary } from '../../src/api/memory.js';
import { startFakeResponses, type FakeResponses } from '../fakes/openai-responses.js';
import { CODEX_BIN, codexHome, fakeProviderOverrides, type CodexHome } from '../helpers/codex.js';
import { TestDaemon } from '../helpers/daemon.js';
import { writeClaudeTranscript } from '../helpers/transcripts.js';

let fake: FakeResponses | undefined;
let daemon: TestDaemon | undefined;
let home: CodexHome | undefined;
let dir: string | undefined;
afterEach(async () => {
  await daemon?.cleanup();
  await fake?.close();
  home?.cleanup();
  if (dir) rmSync(dir, { recursive: true, force: true });
  daemon = fake = home = dir = undefined;
});

const memory = {
  content: 'Pull requests are squash-merged in this repository.',
  type: 'instruction',
  scope: 'project',
  stable: true,
  from: [1],
};

async function ingestWith(reply: Parameters<typeof startFakeResponses>[0]): Promise<IngestSummary> {
  fake = await startFakeResponses(reply);
  home = codexHome();
  dir = mkdtempSync('/tmp/ns-cx-');
  daemon = new TestDaemon(
    { memory: { extractor: 'codex-cli', codexPath: CODEX_BIN, codexConfig: fakeProviderOverrides(fake.url), cliTimeoutSeconds: 60 } },
    { ...home.env },
  );
  await daemon.start();
  const file = join(dir, 't.jsonl');
  writeClaudeTranscript(
    file,
    [
      { role: 'user', text: 'We always squash-merge pull requests in this repository.' },
      { role: 'assistant', text: 'Got it.' },
    ],
    { sessionId: 'cx-1', cwd: dir, start: '2026-05-05T12:00:00Z' },
  );
  const out = await daemon.cli(['ingest', file, '--json']);
  expect(out.code, out.stderr).toBe(0);
  return JSON.parse(out.stdout) as IngestSummary;
}

describe('ingest with memory.extractor codex-cli (real codex exec, fake Responses API)', () => {
  it('stores the model’s memories, with the call’s tokens, counted in usage', async () => {
    const s = await ingestWith([{ text: JSON.stringify({ memories: [memory] }), usage: { input_tokens: 2100, output_tokens: 80 } }]);
    expect((await daemon!.client.status()).memory?.extractor).toMatch(/^codex-cli /);
    expect(s).toMatchObject({ extractor: 'model', tokens: { input: 2100, output: 80 } });
    expect(s.fallback).toBeUndefined();
    expect(fake!.requests.filter((r) => r.path.endsWith('/responses'))).toHaveLength(1);
    const list = await daemon!.cli(['memories', 'list', '--project', dir!, '--json']);
    expect(list.stdout).toContain('Pull requests are squash-merged in this repository.');
    const usage = JSON.parse((await daemon!.cli(['usage', '--json'])).stdout) as unknown;
    expect(JSON.stringify(usage)).toContain('codex-cli');
    expect(JSON.stringify(usage)).toContain('2180');
  }, 90_000);

  it('falls back to the heuristics, saying why, when the answer is not what was asked', async () => {
    const s = await ingestWith([{ text: 'Sure! The memory is: squash-merge.' }]);
    expect(s.extractor).toBe('heuristic');
    expect(s.fallback).toBeDefined();
    const list = await daemon!.cli(['memories', 'list', '--project', dir!, '--json']);
    expect(list.stdout).toMatch(/squash-merge/i);
  }, 90_000);
});
