import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { SessionRecord } from '../../src/api/memory.js';
import { startFakeResponses } from '../fakes/openai-responses.js';
import { daemonsPerTest, runCli, tempDirsPerTest, until } from '../helpers/daemon.js';
import { codexHome, fakeProviderToml, runCodex, type CodexHome } from '../helpers/codex.js';

const newDaemon = daemonsPerTest(afterEach);
const tmp = tempDirsPerTest(afterEach, 'ns-codexhooks-');
const homes: CodexHome[] = [];
afterEach(() => {
  for (const h of homes.splice(0)) h.cleanup();
});
const newHome = (toml?: string) => {
  const h = codexHome(toml);
  homes.push(h);
  return h;
};
const read = (f: string) => readFileSync(f, 'utf8');
const hookCmd = (home: string, event: string) => `NIGHTSHIFT_HOME=${home} /bin/sh ${home}/state/nightshift-hook.sh ${event}`;

describe('nightshift integrate codex: hooks.json', () => {
  it('adds SessionStart, SessionEnd and UserPromptSubmit after the hooks already there, is idempotent, and uninstalls to the same bytes', async () => {
    const h = newHome('model = "o3"\n');
    const file = join(h.dir, 'hooks.json');
    const before =
      '{\n  "hooks": {\n    "SessionStart": [{"matcher": "startup", "hooks": [{"type": "command", "command": "echo mine"}]}],\n    "Stop": []\n  }\n}\n';
    writeFileSync(file, before);
    const nsHome = tmp();
    const env = { ...h.env, NIGHTSHIFT_HOME: nsHome };
    const r = await runCli(['integrate', 'codex', '--json'], env);
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as { files: { file: string; changes: string[] }[]; notes: string[] };
    expect(out.files[2]).toMatchObject({ file, changes: ['added the SessionStart hook', 'added the SessionEnd hook', 'added the UserPromptSubmit hook'] });
    expect(out.notes.join('\n')).toMatch(/trust/i);
    const hooks = (JSON.parse(read(file)) as { hooks: Record<string, unknown[]> }).hooks;
    expect(hooks.SessionStart).toEqual([
      { matcher: 'startup', hooks: [{ type: 'command', command: 'echo mine' }] },
      { hooks: [{ type: 'command', command: hookCmd(nsHome, 'session-start'), timeout: 10 }] },
    ]);
    expect(hooks.SessionEnd).toEqual([{ hooks: [{ type: 'command', command: hookCmd(nsHome, 'session-end'), timeout: 30 }] }]);
    expect(hooks.UserPromptSubmit).toEqual([{ hooks: [{ type: 'command', command: hookCmd(nsHome, 'user-prompt-submit'), timeout: 5 }] }]);
    expect(hooks.Stop).toEqual([]);
    const installed = read(file);
    expect((await runCli(['integrate', 'codex'], env)).stdout).toContain('already set up; nothing changed');
    expect(read(file)).toBe(installed);
    expect((await runCli(['integrate', 'codex', '--uninstall'], env)).code).toBe(0);
    expect(read(file)).toBe(before);
    expect(read(join(h.dir, 'config.toml'))).toBe('model = "o3"\n');
  });

  it('creates hooks.json when there is none and removes it again on uninstall', async () => {
    const h = newHome();
    const file = join(h.dir, 'hooks.json');
    expect((await runCli(['integrate', 'codex'], h.env)).code).toBe(0);
    expect(Object.keys((JSON.parse(read(file)) as { hooks: object }).hooks)).toEqual(['SessionStart', 'SessionEnd', 'UserPromptSubmit']);
    const un = await runCli(['integrate', 'codex', '--uninstall'], h.env);
    expect(un.code, un.stderr).toBe(0);
    expect(existsSync(file)).toBe(false);
  });

  it('refuses a hooks.json that is not JSON, naming it, and changes nothing', async () => {
    const h = newHome();
    const file = join(h.dir, 'hooks.json');
    mkdirSync(h.dir, { recursive: true });
    writeFileSync(file, '{"hooks": ');
    const r = await runCli(['integrate', 'codex'], h.env);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain(file);
    expect(read(file)).toBe('{"hooks": ');
    expect(existsSync(join(h.dir, 'config.toml'))).toBe(false);
  });
});

describe('the installed hooks, run by the real codex CLI (exec, against a fake API on loopback)', () => {
  it('SessionStart adds the recalled memories and the tasks ended since the last session; UserPromptSubmit a task waiting at a prompt; SessionEnd has the rollout ingested', async () => {
    const fake = await startFakeResponses([], { text: 'Done.' });
    try {
      const d = newDaemon();
      await d.start();
      const project = tmp();
      await d.cli(['remember', '--project', project, '--stable', '--type', 'instruction', 'Use pnpm, never npm, in this repository.']);
      // Ended while no session ran: in the session-start block. Waiting at a prompt: a line at the prompt.
      const failed = await d.client.run({ command: ['sh', '-c', 'echo "3 tests failed"; exit 1'], cwd: project, name: 'unit tests' });
      await until(async () => (await d.client.get(failed.id)).status === 'exited');
      const waiting = await d.client.run({ command: ['sh', '-c', 'printf "Continue? [y/N] "; read x'], cwd: project, stallAfterSeconds: 1 });
      await until(async () => {
        const t = await d.client.get(waiting.id);
        return t.state === 'running' && t.attention?.kind === 'prompt';
      }, 15_000);
      const h = newHome(fakeProviderToml(fake.url));
      const integrated = await runCli(['integrate', 'codex'], { ...h.env, NIGHTSHIFT_HOME: d.home });
      expect(integrated.code, integrated.stderr).toBe(0);

      // Untrusted hooks do not run in `codex exec`; the bypass stands in for the person's review.
      // Analytics and plugins off: otherwise codex looks up chatgpt.com and api.github.com (seen with strace).
      const args = ['exec', '--json', '--skip-git-repo-check', '--dangerously-bypass-hook-trust'];
      for (const c of ['mcp_servers.nightshift.enabled=false', 'analytics.enabled=false', 'features.plugins=false']) args.push('-c', c);
      args.push('-');
      const run = await runCodex(args, h.env, project, 'From now on, always write commit messages in the imperative mood.');
      expect(run.code, run.stderr).toBe(0);
      const threadId = (JSON.parse(run.stdout.split('\n')[0] ?? '') as { thread_id: string }).thread_id;
      const request = fake.requests.find((q) => q.path.endsWith('/responses'));
      expect(request?.raw).toContain('Use pnpm, never npm');
      expect(request?.raw).toContain(`task ${failed.id} (unit tests) failed: exit 1`);
      expect(request?.raw).toContain(`task ${waiting.id} (`);
      expect(request?.raw).toContain('is waiting at a prompt');
      await d.client.kill(waiting.id, 'SIGKILL');

      const sessions = await until(async () => {
        const s = await d.client.sessions();
        return s.find((x: SessionRecord) => x.sessionId === threadId && x.state === 'ingested') ? s : undefined;
      }, 20_000);
      expect(sessions.find((x) => x.sessionId === threadId)).toMatchObject({ reason: 'other' });
      expect((await d.cli(['recall', '--project', project])).stdout).toContain('imperative mood');
    } finally {
      await fake.close();
    }
  }, 60_000);
});
