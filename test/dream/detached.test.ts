/**
 * A dream does not depend on the client that asked for it: `nightshift dream` on a terminal (here a
 * pty from script(1)) is killed while the dream waits on the model, and the dream still runs to its
 * end; `dream log` shows it running, then done, and `dream show ID` follows it to its report.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { DreamReport, RunningDream } from '../../src/api/dream.js';
import type { Memory } from '../../src/api/memory.js';
import { fileFor } from '../../src/memory/store/memory-file.js';
import { reply, startFakeAnthropic, toolUse, type FakeAnthropic, type RecordedRequest } from '../fakes/anthropic.js';
import { CLI, TestDaemon, until } from '../helpers/daemon.js';

let fake: FakeAnthropic | undefined;
let daemon: TestDaemon | undefined;
let dir: string | undefined;
afterEach(async () => {
  await daemon?.cleanup();
  await fake?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
  daemon = fake = dir = undefined;
});

const MODEL_DELAY_MS = 2500;

/** The fake model takes its time, then calls every pair it is asked about the same fact. */
function slowVerdicts(req: RecordedRequest) {
  const body = (req.body.messages as { content: string }[]).map((m) => m.content).join('\n');
  const pairs = [...body.matchAll(/pair (p\d+):/g)].map((m) => ({ key: m[1], verdict: 'same' }));
  return reply([toolUse('record_verdicts', { pairs })], { delayMs: MODEL_DELAY_MS, usage: { input_tokens: 900, output_tokens: 40 } });
}

async function seeded(): Promise<TestDaemon> {
  fake = await startFakeAnthropic({ defaultStep: slowVerdicts });
  dir = mkdtempSync('/tmp/ns-detach-');
  daemon = new TestDaemon({ dream: { schedule: false } }, { ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: 'sk-test-0000' });
  const project = dir;
  const at = new Date(Date.now() - 3 * 86_400_000).toISOString();
  const base = {
    type: 'fact',
    scope: 'project',
    project,
    stable: true,
    pinned: false,
    importance: 0.6,
    reinforcements: 0,
    sources: [],
    origin: 'import',
    createdAt: at,
    lastSeenAt: at,
  };
  // A paraphrase the analysis cannot tell is one: the model is asked, and merges them.
  const memories = ['The API server listens on port 8080.', 'Port 8080 is where the API server accepts connections.'].map((content, i) => ({
    ...base,
    id: `m${String(i + 1).padStart(12, '0')}`,
    content,
  }));
  const file = fileFor(daemon.paths.memoryDir, { scope: 'project', project });
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify({ version: 1, namespace: { scope: 'project', project }, memories }));
  await daemon.start();
  return daemon;
}

const hasScript = spawnSync('script', ['--version'], { stdio: 'ignore' }).status === 0;

describe('a dream whose client goes away', () => {
  it('runs to its end; dream log shows it running then done; dream show follows it to the full report', async (ctx) => {
    if (!hasScript) ctx.skip('script(1) (util-linux) is needed to give `nightshift dream` a terminal');
    const d = await seeded();
    // On a terminal the CLI asks for progress lines: the stream whose client we kill.
    const client = spawn('script', ['-qfec', `${process.execPath} ${CLI} dream`, '/dev/null'], { env: d.env, stdio: ['pipe', 'pipe', 'pipe'], detached: true });
    let seen = '';
    client.stdout.on('data', (c: Buffer) => (seen += c.toString()));
    // Past gather, the dream waits on the (slow) model: kill the client there.
    await until(() => seen.includes('gather'), 15_000);
    const gone = new Promise((r) => client.once('exit', r));
    process.kill(-(client.pid ?? 0), 'SIGKILL');
    await gone;

    const log = JSON.parse((await d.cli(['dream', 'log', '--json'])).stdout) as (RunningDream & { running?: boolean })[];
    const running = log[0];
    expect(running?.running).toBe(true);
    expect(running?.phases.map((p) => p.phase)).toEqual(['orient', 'gather']);
    const human = await d.cli(['dream', 'log']);
    expect(human.stdout).toMatch(/running \(gather\)/);

    const shown = await d.cli(['dream', 'show', running?.id ?? '', '--json']);
    expect(shown.code, shown.stderr).toBe(0);
    const report = JSON.parse(shown.stdout) as DreamReport;
    expect(report.id).toBe(running?.id);
    expect(report.error).toBeUndefined();
    expect(report.phases.consolidate.modelBatches).toBe(1);
    expect(report.merges).toEqual([expect.objectContaining({ into: 'm000000000001', merged: ['m000000000002'] })]);
    expect(report.phases.prune).toBeDefined();

    const after = JSON.parse((await d.cli(['dream', 'log', '--json'])).stdout) as { id: string; running?: boolean; merged: number }[];
    expect(after[0]).toMatchObject({ id: running?.id, merged: 1 });
    expect(after[0]?.running).toBeUndefined();
    const all = (await d.cli(['memories', 'export'])).stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Memory);
    // The dream applied its report: the paraphrase is merged into the older statement.
    expect(all.find((m) => m.id === 'm000000000002')?.supersededBy).toBe('m000000000001');
    // A finished dream: show answers at once, from its saved report.
    const again = JSON.parse((await d.cli(['dream', 'show', report.id, '--json'])).stdout) as DreamReport;
    expect(again).toEqual(report);
  }, 60_000);
});
