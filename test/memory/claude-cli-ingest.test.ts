/**
 * End to end: a daemon with memory.extractor "claude-cli" ingests a transcript through the real
 * `claude -p` (pinned devDependency) talking to the fake Messages server, and lists the model's
 * memories. Model memories go through the same secret filter and slot identity as heuristic ones.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { IngestSummary } from '../../src/api/memory.js';
import { reply, startFakeAnthropic, toolUse, type FakeAnthropic } from '../fakes/anthropic.js';
import { CLAUDE, claudeHome, type ClaudeHome } from '../helpers/claude-cli.js';
import { TestDaemon } from '../helpers/daemon.js';
import { writeClaudeTranscript } from '../helpers/transcripts.js';

const SECRET = 'sk-ant-api03-' + 'Q9w8E7r6T5y4U3i2O1p0'.repeat(4) + 'ZZ';
let fake: FakeAnthropic | undefined;
let daemon: TestDaemon | undefined;
let home: ClaudeHome | undefined;
let dir: string | undefined;
afterEach(async () => {
  await daemon?.cleanup();
  await fake?.close();
  home?.cleanup();
  if (dir) rmSync(dir, { recursive: true, force: true });
  daemon = fake = home = dir = undefined;
});

describe('ingest with memory.extractor claude-cli (real claude -p, fake Messages API)', () => {
  it('stores the model’s memories, secret-filtered, and says which extractor it is', async () => {
    const memories = [
      {
        content: 'Pull requests are squash-merged in this repository.',
        type: 'instruction',
        scope: 'project',
        stable: true,
        from: [1],
      },
      {
        content: `The staging deploy uses the key ${SECRET} from the vault.`,
        type: 'fact',
        scope: 'project',
        stable: true,
        from: [1],
      },
    ];
    fake = await startFakeAnthropic({ steps: [reply([toolUse('StructuredOutput', { memories })])], defaultStep: reply('(no more scripted answers)') });
    home = claudeHome(fake.url);
    dir = mkdtempSync('/tmp/ns-cli-');
    daemon = new TestDaemon({ memory: { extractor: 'claude-cli', claudePath: CLAUDE, model: 'claude-haiku-4-5', cliTimeoutSeconds: 30 } }, { ...home.env });
    await daemon.start();
    expect((await daemon.client.status()).memory?.extractor).toBe('claude-cli claude-haiku-4-5');
    const file = join(dir, 't.jsonl');
    writeClaudeTranscript(
      file,
      [
        { role: 'user', text: 'We always squash-merge pull requests in this repository.' },
        { role: 'assistant', text: 'Got it.' },
      ],
      { sessionId: 'cli-1', cwd: dir, start: '2026-05-05T12:00:00Z' },
    );
    const s = JSON.parse((await daemon.cli(['ingest', file, '--json'])).stdout) as IngestSummary;
    expect(s.extractor).toBe('model');
    expect(s.fallback).toBeUndefined();
    expect(s.secretsMasked).toBeGreaterThan(0);
    expect(s.tokens?.input).toBeGreaterThan(0);
    // The CLI's own figure (total_cost_usd), kept on the session and counted in usage.
    expect(s.costUsd).toBeGreaterThan(0);
    const sessions = JSON.parse((await daemon.cli(['sessions', '--json'])).stdout) as { sessionId: string; costUsd?: number }[];
    expect(sessions.find((x) => x.sessionId === 'cli-1')?.costUsd).toBe(s.costUsd);
    expect(fake.requests).toHaveLength(1);
    expect(fake.requests[0]?.body.model).toBe('claude-haiku-4-5');
    expect((fake.requests[0]?.body.tools ?? []).map((t) => ('name' in t ? t.name : t.type))).toEqual(['StructuredOutput']);
    const list = await daemon.cli(['memories', 'list', '--project', dir, '--json']);
    expect(list.stdout).toContain('Pull requests are squash-merged in this repository.');
    expect(list.stdout).toContain('staging deploy');
    expect(list.stdout).not.toContain(SECRET);
    expect(daemon.log).not.toContain('squash-merge pull requests');
  });

  it('uses the heuristics, saying why, when the claude CLI cannot be found', async () => {
    daemon = new TestDaemon({ memory: { extractor: 'claude-cli', claudePath: '/nonexistent/claude' } });
    await daemon.start();
    expect((await daemon.client.status()).memory?.extractor).toBe('heuristic');
    expect(daemon.log).toContain('/nonexistent/claude was not found');
  });
});
