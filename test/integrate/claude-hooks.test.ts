/**
 * The hooks `nightshift integrate claude-code` installs, run by the real Claude Code binary (the
 * pinned devDependency, `claude -p`) against the fake Messages server: the session-start block
 * with the tasks that ended since the project's last session, and at a prompt one line for a task
 * waiting at a prompt — once, also across a resumed session's next prompt (the ledger says so).
 */
import { randomUUID } from 'node:crypto';
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
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

  it('both hooks go through the shell entry over the socket, the Node hook out of reach, and their context reaches the model', async () => {
    fake = await startFakeAnthropic({ defaultStep: reply('Done.') });
    home = claudeHome(fake.url);
    // A small session-start budget and many standing rules: the fact the prompt asks about is left for the prompt hook.
    const d = newDaemon({ memory: { recallBudget: 200 } });
    await d.start();
    const project = tmp();
    const env = { ...home.env, ...QUIET, NIGHTSHIFT_HOME: d.home, NIGHTSHIFT_PROMPT_HOOK_TIMEOUT_MS: '10000', NIGHTSHIFT_HOOK_TIMEOUT_MS: '10000' };
    expect((await runCli(['integrate', 'claude-code'], env)).code).toBe(0);
    const settings = readFileSync(join(home.dir, '.claude', 'settings.json'), 'utf8');
    const entry = join(d.paths.stateDir, 'nightshift-hook.sh');
    expect(settings).toContain(`/bin/sh ${entry} session-start`);
    expect(settings).toContain(`/bin/sh ${entry} user-prompt-submit`);
    expect(settings).not.toContain('cli.js');
    // Were the entry to fall back to Node, the hooks would print nothing.
    writeFileSync(entry, readFileSync(entry, 'utf8').replace(/^CLI=.*$/m, 'CLI=/nonexistent/cli.js'));
    const tools = ['pnpm', 'ruff', 'black', 'mypy', 'eslint', 'prettier', 'vitest', 'tsx', 'esbuild', 'biome', 'turbo', 'nx', 'lerna', 'yarn', 'bun', 'deno'];
    for (const t of tools) await d.client.remember({ content: `Always run ${t} through the wrapper script in tools/${t}.sh.`, project, stable: true });
    await d.cli(['remember', '--project', project, 'The staging database is reset every Sunday night by the cron job in ops/reset.sh.']);

    const session = randomUUID();
    const r = await claude(['-p', 'When is the staging database reset, and by which cron job?', '--session-id', session], env, project);
    expect(r.code, r.stderr).toBe(0);
    const ledger = JSON.parse((await d.cli(['injections', '--session', session, '--json'])).stdout) as InjectionsResponse;
    const start = ledger.injections.find((i) => i.event === 'session-start');
    const prompt = ledger.injections.find((i) => i.event === 'prompt');
    expect(start?.items.map((i) => i.text).join('\n')).toContain('through the wrapper script');
    expect(start?.items.map((i) => i.text).join('\n')).not.toContain('staging database');
    expect(prompt?.items.map((i) => i.text).join('\n')).toContain('staging database is reset');
    const request = fake.requests.find((q) => q.path.startsWith('/v1/messages') && q.raw.includes('What nightshift remembers'));
    expect(request?.raw).toContain('through the wrapper script');
    expect(request?.raw).toContain('nightshift recalls (matched to this prompt)');
    expect(request?.raw).toContain('The staging database is reset every Sunday night');
  }, 120_000);
});
