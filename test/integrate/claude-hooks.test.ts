/**
 * The hooks `nightshift integrate claude-code` installs, run by the real Claude Code binary (the
 * pinned devDependency, `claude -p`) against the fake Messages server: the session-start block
 * with the tasks that ended since the project's last session, and at a prompt one line for a task
 * waiting at a prompt — once, also across a resumed session's next prompt (the ledger says so).
 */
import { randomUUID } from 'node:crypto';
import { spawn } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import type { InjectionsResponse } from '../../src/api/injections.js';
import { startFakeAnthropic, reply, type FakeAnthropic } from '../fakes/anthropic.js';
import { CLAUDE, claudeHome, type ClaudeHome } from '../helpers/claude-cli.js';
import { daemonsPerTest, runCli, tempDirsPerTest, until } from '../helpers/daemon.js';

const newDaemon = daemonsPerTest(afterEach);
const tmp = tempDirsPerTest(afterEach, 'ns-cchooks-');
let fake: FakeAnthropic | undefined;
let home: ClaudeHome | undefined;
afterEach(async () => {
  await fake?.close();
  home?.cleanup();
  fake = home = undefined;
});

/** Nothing but the one fake API: no telemetry, updates or error reports. */
const QUIET = { CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1', DISABLE_TELEMETRY: '1', DISABLE_ERROR_REPORTING: '1', DISABLE_AUTOUPDATER: '1' };

function claude(args: string[], env: Record<string, string>, cwd: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done, fail) => {
    const p = spawn(CLAUDE, args, { env, cwd, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let stdout = '';
    let stderr = '';
    p.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    p.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const timer = setTimeout(() => {
      if (p.pid) process.kill(-p.pid, 'SIGKILL');
      fail(new Error(`claude timed out; stderr: ${stderr}`));
    }, 60_000);
    p.on('error', fail);
    p.on('close', (code) => {
      clearTimeout(timer);
      done({ code, stdout, stderr });
    });
  });
}

describe('the installed hooks, run by the real claude -p (fake Messages API)', () => {
  it('SessionStart injects the tasks ended since the last session; UserPromptSubmit tells of a task waiting at a prompt once', async () => {
    fake = await startFakeAnthropic({ defaultStep: reply('Done.') });
    home = claudeHome(fake.url);
    const d = newDaemon();
    await d.start();
    const project = tmp();
    const env = { ...home.env, ...QUIET, NIGHTSHIFT_HOME: d.home, NIGHTSHIFT_PROMPT_HOOK_TIMEOUT_MS: '10000' };
    const integrated = await runCli(['integrate', 'claude-code'], env);
    expect(integrated.code, integrated.stderr).toBe(0);
    await d.cli(['remember', '--project', project, '--stable', '--type', 'instruction', 'Use pnpm, never npm, in this repository.']);
    const failed = await d.client.run({ command: ['sh', '-c', 'echo "FAIL src/totals.test.ts"; exit 1'], cwd: project, name: 'unit tests' });
    await until(async () => (await d.client.get(failed.id)).status === 'exited');
    const waiting = await d.client.run({ command: ['sh', '-c', 'printf "Overwrite the snapshot? [y/N] "; read x'], cwd: project, stallAfterSeconds: 1 });
    await until(async () => {
      const t = await d.client.get(waiting.id);
      return t.state === 'running' && t.attention?.kind === 'prompt';
    }, 15_000);

    const session = randomUUID();
    const first = await claude(['-p', 'What should I look at first?', '--session-id', session], env, project);
    expect(first.code, first.stderr).toBe(0);
    const request = fake.requests.find((q) => q.path.startsWith('/v1/messages') && q.raw.includes('Use pnpm'));
    expect(request?.raw).toContain('Tasks here since your last session');
    expect(request?.raw).toContain(`task ${failed.id} (unit tests) failed: exit 1`);
    expect(request?.raw).toContain(`task ${waiting.id} (`);
    expect(request?.raw).toContain('is waiting at a prompt');

    const before = fake.requests.length;
    const second = await claude(['-p', 'And then?', '--resume', session], env, project);
    expect(second.code, second.stderr).toBe(0);
    expect(fake.requests.length).toBeGreaterThan(before);
    // Each line was injected once: the ledger of the session holds one item per task.
    const ledger = JSON.parse((await d.cli(['injections', '--session', session, '--json'])).stdout) as InjectionsResponse;
    const told = ledger.injections.flatMap((i) => i.items.filter((x) => x.kind === 'task').map((x) => x.id.split('@')[0]));
    expect(told.sort()).toEqual([failed.id, waiting.id].sort());
    expect(ledger.injections.every((i) => i.tokens > 0)).toBe(true);
    await d.client.kill(waiting.id, 'SIGKILL');
  }, 120_000);
});
