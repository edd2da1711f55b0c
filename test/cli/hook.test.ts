import { existsSync, mkdirSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { SessionRecord } from '../../src/api/memory.js';
import { daemonsPerTest, runCli, tempDirsPerTest, until } from '../helpers/daemon.js';
import { writeClaudeTranscript } from '../helpers/transcripts.js';

const newDaemon = daemonsPerTest(afterEach);
const tmp = tempDirsPerTest(afterEach, 'ns-hook-');

describe('Claude Code hooks', () => {
  it('session-start prints the recalled memories as SessionStart additionalContext', async () => {
    const d = newDaemon();
    await d.start();
    const project = tmp();
    await d.cli(['remember', '--project', project, '--stable', '--type', 'instruction', 'Use pnpm, never npm, in this repository.']);
    const r = await d.cli(['hook', 'session-start'], {
      input: JSON.stringify({ session_id: 'x', cwd: project, source: 'startup', hook_event_name: 'SessionStart' }),
    });
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as { hookSpecificOutput: { hookEventName: string; additionalContext: string } };
    expect(out.hookSpecificOutput.hookEventName).toBe('SessionStart');
    expect(out.hookSpecificOutput.additionalContext).toContain('Use pnpm, never npm');
  });

  it('session-start prints nothing and exits 0 when no daemon answers', async () => {
    const d = newDaemon(); // never started; NIGHTSHIFT_NO_AUTOSTART=1
    const started = Date.now();
    const r = await d.cli(['hook', 'session-start'], { input: JSON.stringify({ cwd: tmp(), source: 'startup' }) });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('session-end hands the transcript over and returns at once; the daemon ingests it', async () => {
    const d = newDaemon();
    await d.start();
    const dir = tmp();
    const file = join(dir, 'end.jsonl');
    writeClaudeTranscript(file, [{ role: 'user', text: 'From now on, always write commit messages in the imperative mood.' }], {
      sessionId: 'end-1',
      cwd: dir,
    });
    const r = await d.cli(['hook', 'session-end'], {
      input: JSON.stringify({ session_id: 'end-1', transcript_path: file, cwd: dir, reason: 'exit', hook_event_name: 'SessionEnd' }),
    });
    expect(r.code, r.stderr).toBe(0);
    const sessions = await until(async () => {
      const s = await d.client.sessions();
      return s.find((x: SessionRecord) => x.state === 'ingested') ? s : undefined;
    });
    expect(sessions[0]).toMatchObject({ sessionId: 'end-1', reason: 'exit' });
    expect((await d.cli(['recall', '--project', dir])).stdout).toContain('imperative mood');
  });

  it('session-end spools the session when the daemon is down; the next daemon ingests it', async () => {
    const d = newDaemon();
    const dir = tmp();
    const file = join(dir, 'late.jsonl');
    writeClaudeTranscript(file, [{ role: 'user', text: 'Always use tabs for indentation.' }], { sessionId: 'late-1', cwd: dir });
    const r = await d.cli(['hook', 'pre-compact'], { input: JSON.stringify({ session_id: 'late-1', transcript_path: file, cwd: dir, trigger: 'auto' }) });
    expect(r.code, r.stderr).toBe(0);
    expect(readdirSync(d.paths.spoolDir)).toHaveLength(1);
    await d.start();
    await until(async () => (await d.client.sessions()).some((s) => s.sessionId === 'late-1' && s.state === 'ingested'));
    await until(() => readdirSync(d.paths.spoolDir).length === 0);
  });

  it('rejects hook input that is not JSON', async () => {
    const d = newDaemon();
    await d.start();
    const r = await d.cli(['hook', 'session-end'], { input: 'not json' });
    // 1, never 2: Claude Code reads exit 2 as "block" (a compaction, for pre-compact).
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('not valid JSON');
  });

  it('session-end with a transcript path that is a directory or a symlink loop: exit 0, nothing on stdout, one line on stderr each', async () => {
    const d = newDaemon();
    await d.start();
    const dir = tmp();
    const loop = join(dir, 'loop.jsonl');
    symlinkSync(loop, loop);
    for (const [path, why] of [
      [dir, 'is a directory, not a transcript file'],
      [loop, 'is a symlink loop (ELOOP)'],
    ] as const) {
      const r = await d.cli(['hook', 'session-end'], { input: JSON.stringify({ session_id: 's-odd', transcript_path: path, cwd: dir }) });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toBe('');
      expect(r.stderr).toBe(`nightshift: the session was not ingested: transcript ${path} ${why}\n`);
    }
    expect(await d.client.sessions()).toEqual([]);
  });

  it('session-end and pre-compact without a transcript (e.g. `claude mcp list`) exit 0 and ingest nothing', async () => {
    const d = newDaemon();
    await d.start();
    const missing = join(tmp(), 'never-written.jsonl');
    for (const [event, extra] of [
      ['session-end', { reason: 'other' }],
      ['pre-compact', { trigger: 'manual' }],
    ] as const) {
      const r = await d.cli(['hook', event], {
        input: JSON.stringify({ session_id: 's-1', transcript_path: missing, cwd: '/', hook_event_name: 'x', ...extra }),
      });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toContain(`no transcript at ${missing}; nothing to ingest`);
    }
    const none = await d.cli(['hook', 'session-end'], { input: JSON.stringify({ session_id: 's-2', hook_event_name: 'SessionEnd' }) });
    expect(none.code, none.stderr).toBe(0);
    expect(await d.client.sessions()).toEqual([]);
    await d.stop();
    // The daemon down: nothing is spooled for a transcript that does not exist.
    const down = await d.cli(['hook', 'session-end'], { input: JSON.stringify({ session_id: 's-3', transcript_path: missing }) });
    expect(down.code, down.stderr).toBe(0);
    expect(existsSync(d.paths.spoolDir) ? readdirSync(d.paths.spoolDir) : []).toEqual([]);
  });

  it('session-start with no daemon says it starts one, in one line naming its pid, and exits 0', async () => {
    const d = newDaemon();
    const env = { ...d.env };
    delete env.NIGHTSHIFT_NO_AUTOSTART;
    const r = await runCli(['hook', 'session-start'], env, { input: JSON.stringify({ cwd: tmp(), source: 'startup' }) });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('');
    const m = /^nightshift: daemon not running; starting it in the background \(pid (\d+)\); no memories for this session\n$/.exec(r.stderr);
    expect(m, r.stderr).not.toBeNull();
    const pid = Number(m?.[1]);
    try {
      const status = await until(() => d.client.status().catch(() => undefined));
      expect(status.pid).toBe(pid);
    } finally {
      process.kill(pid, 'SIGTERM');
      await until(() => !alive(pid));
    }
  });
});

describe('hook user-prompt-submit', () => {
  // The hook gives up after 150 ms by default; a loaded test machine may take longer to answer.
  const patient = { NIGHTSHIFT_PROMPT_HOOK_TIMEOUT_MS: '10000' };
  const promptInput = (sessionId: string, cwd: string, prompt: string) =>
    JSON.stringify({ session_id: sessionId, transcript_path: join(cwd, 't.jsonl'), cwd, hook_event_name: 'UserPromptSubmit', prompt });
  const context = (stdout: string): string => {
    const out = JSON.parse(stdout) as { hookSpecificOutput: { hookEventName: string; additionalContext: string } };
    expect(out.hookSpecificOutput.hookEventName).toBe('UserPromptSubmit');
    return out.hookSpecificOutput.additionalContext;
  };

  async function withMemories() {
    const d = newDaemon();
    await d.start();
    const project = tmp();
    for (const m of [
      'The staging database runs Postgres 15 on port 5433.',
      'Deploys to production go through the GitHub Actions workflow deploy.yml, never by hand.',
      'Image uploads go to the S3 bucket acme-uploads in eu-west-1.',
    ]) {
      expect((await d.cli(['remember', '--project', project, '--type', 'fact', m])).code).toBe(0);
    }
    expect((await d.cli(['remember', '--user', '--type', 'instruction', 'Always write commit messages in the imperative mood.'])).code).toBe(0);
    return { d, project };
  }

  it('adds the memories that match the prompt, and only those', async () => {
    const { d, project } = await withMemories();
    const r = await d.cli(['hook', 'user-prompt-submit'], {
      input: promptInput('s1', project, 'connect to the staging database and list the tables'),
      env: patient,
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe('');
    const text = context(r.stdout);
    expect(text).toContain('staging database runs Postgres 15 on port 5433');
    expect(text).not.toContain('deploy.yml');
    expect(text).not.toContain('imperative mood');
  });

  it('a prompt of 1.5 MiB (past the request limit) gets the recall of its first 2,000 characters', async () => {
    const { d, project } = await withMemories();
    const prompt = `connect to the staging database and list the tables\n${'x'.repeat(1.5 * 1024 * 1024)}`;
    const r = await d.cli(['hook', 'user-prompt-submit'], { input: promptInput('s-big', project, prompt), env: patient });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe('');
    expect(context(r.stdout)).toContain('staging database runs Postgres 15 on port 5433');
  });

  it('prints nothing for a prompt unrelated to any memory, even one sharing a word with one', async () => {
    const { d, project } = await withMemories();
    for (const prompt of ['write a haiku about autumn leaves', 'what is 17 times 23?', 'hi']) {
      const r = await d.cli(['hook', 'user-prompt-submit'], { input: promptInput('s2', project, prompt), env: patient });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout, prompt).toBe('');
      expect(r.stderr).toBe('');
    }
  });

  it('never adds the same memory twice to a session, across a daemon restart too', async () => {
    const { d, project } = await withMemories();
    const prompt = 'deploy this branch to production';
    const first = await d.cli(['hook', 'user-prompt-submit'], { input: promptInput('s3', project, prompt), env: patient });
    expect(context(first.stdout)).toContain('deploy.yml');
    const again = await d.cli(['hook', 'user-prompt-submit'], { input: promptInput('s3', project, `${prompt} now`), env: patient });
    expect(again.code).toBe(0);
    expect(again.stdout).toBe('');
    // Another session gets it; the first does not, even from a restarted daemon.
    expect(context((await d.cli(['hook', 'user-prompt-submit'], { input: promptInput('s4', project, prompt), env: patient })).stdout)).toContain('deploy.yml');
    await d.restart();
    for (const session of ['s3', 's4'])
      expect((await d.cli(['hook', 'user-prompt-submit'], { input: promptInput(session, project, prompt), env: patient })).stdout, session).toBe('');
  });

  it('adds a match from a store of one memory too (BM25 scores little there)', async () => {
    const d = newDaemon();
    await d.start();
    const project = tmp();
    await d.cli([
      'remember',
      '--project',
      project,
      '--type',
      'procedure',
      'Deploys to production go through the GitHub Actions workflow deploy.yml, never by hand.',
    ]);
    const r = await d.cli(['hook', 'user-prompt-submit'], { input: promptInput('s8', project, 'deploy this branch to production'), env: patient });
    expect(context(r.stdout)).toContain('deploy.yml');
  });

  it('adds excerpts of other sessions, never of the same one (nor the prompt repeated)', async () => {
    const d = newDaemon();
    await d.start();
    const project = tmp();
    const file = join(project, 'past.jsonl');
    writeClaudeTranscript(
      file,
      [
        { role: 'user', text: 'the nightly export job to the warehouse keeps timing out after the vacuum step' },
        {
          role: 'assistant',
          text: 'The nightly export job times out because the warehouse vacuum step holds a lock; I moved the export job after the vacuum step finishes.',
        },
      ],
      { sessionId: 'past-1', cwd: project },
    );
    expect((await d.cli(['ingest', file, '--session', 'past-1'])).code).toBe(0);
    const prompt = 'the nightly export job to the warehouse keeps timing out after the vacuum step';
    // In the session the excerpts come from: its own words are no recall.
    expect((await d.cli(['hook', 'user-prompt-submit'], { input: promptInput('past-1', project, prompt), env: patient })).stdout).toBe('');
    // In another session: the answer comes back, the identical question does not.
    const text = context((await d.cli(['hook', 'user-prompt-submit'], { input: promptInput('later-1', project, prompt), env: patient })).stdout);
    expect(text).toContain('moved the export job after the vacuum step');
    expect(text).not.toContain(prompt);
  });

  it('keeps the context to a few lines within 2,000 characters', async () => {
    const d = newDaemon();
    await d.start();
    const project = tmp();
    // Many long matches among other memories (words every memory shares would weigh nothing).
    const lines = [
      ...Array.from(
        { length: 15 },
        (_, i) =>
          `Release train ${i}: the release checklist for the payments gateway requires a canary deploy, a smoke test and sign-off from the payments team before the gateway release goes out.`,
      ),
      ...Array.from({ length: 40 }, (_, i) => `Dashboard ${i} shows the weekly signup charts for the marketing site in colour ${i}.`),
    ];
    const file = join(project, 'memories.jsonl');
    writeFileSync(file, lines.map((content) => JSON.stringify({ content, project, type: 'procedure' })).join('\n'));
    expect((await d.cli(['memories', 'import', file])).code).toBe(0);
    const r = await d.cli(['hook', 'user-prompt-submit'], {
      input: promptInput('s5', project, 'prepare the payments gateway release checklist'),
      env: patient,
    });
    const text = context(r.stdout);
    expect(text).toContain('payments gateway');
    expect(text).not.toContain('Dashboard');
    expect(text.length).toBeLessThanOrEqual(2000);
    expect(text.split('\n').length).toBeLessThanOrEqual(6); // a heading and five lines at most
  });

  it('exits 0 silently when no daemon runs, and does not start one', async () => {
    const d = newDaemon(); // never started
    const project = tmp();
    const r = await d.cli(['hook', 'user-prompt-submit'], {
      input: promptInput('s6', project, 'deploy this branch to production'),
      env: { NIGHTSHIFT_NO_AUTOSTART: '' },
    });
    expect(r).toEqual({ code: 0, stdout: '', stderr: '' });
    await new Promise((res) => setTimeout(res, 300));
    expect(existsSync(d.paths.socket)).toBe(false);
    expect(existsSync(d.paths.daemonLog)).toBe(false);
  });

  it('gives up quickly and silently when the daemon does not answer', async () => {
    const d = newDaemon(); // a socket that accepts and never answers stands in for a stuck daemon
    mkdirSync(d.paths.runtimeDir, { recursive: true });
    const stuck: Server = createServer(() => undefined);
    await new Promise<void>((res) => stuck.listen(d.paths.socket, res));
    try {
      const started = Date.now();
      const r = await d.cli(['hook', 'user-prompt-submit'], { input: promptInput('s7', tmp(), 'deploy this branch to production') });
      expect(r).toEqual({ code: 0, stdout: '', stderr: '' });
      expect(Date.now() - started).toBeLessThan(3000);
    } finally {
      stuck.close();
    }
  });

  it('exits 0 silently on input it cannot read (an exit 2 would block the prompt)', async () => {
    const { d } = await withMemories();
    for (const input of ['not json', '[1]', JSON.stringify({ prompt: 42 })]) {
      const r = await d.cli(['hook', 'user-prompt-submit'], { input, env: patient });
      expect(r, input).toEqual({ code: 0, stdout: '', stderr: '' });
    }
  });
});

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('Codex CLI hook input (as codex-cli 0.169.0 sends it)', () => {
  const codexLines = (sessionId: string, cwd: string, text: string) =>
    [
      {
        timestamp: '2026-01-02T10:00:00.000Z',
        type: 'session_meta',
        payload: { id: sessionId, timestamp: '2026-01-02T10:00:00.000Z', cwd, originator: 'codex_exec', cli_version: '0.169.0' },
      },
      { timestamp: '2026-01-02T10:00:01.000Z', type: 'response_item', payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text }] } },
      {
        timestamp: '2026-01-02T10:00:02.000Z',
        type: 'response_item',
        payload: { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Noted.' }] },
      },
    ]
      .map((l) => JSON.stringify(l))
      .join('\n') + '\n';

  it('session-start reads the SessionStart input (transcript_path null, model, permission_mode) and prints the context', async () => {
    const d = newDaemon();
    await d.start();
    const project = tmp();
    await d.cli(['remember', '--project', project, '--stable', '--type', 'instruction', 'Use pnpm, never npm, in this repository.']);
    const input = {
      session_id: 's-1',
      transcript_path: null,
      cwd: project,
      hook_event_name: 'SessionStart',
      model: 'gpt-5',
      permission_mode: 'default',
      source: 'startup',
    };
    const r = await d.cli(['hook', 'session-start'], { input: JSON.stringify(input) });
    expect(r.code, r.stderr).toBe(0);
    expect((JSON.parse(r.stdout) as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput.additionalContext).toContain('Use pnpm');
  });

  it('session-end ingests the rollout named by the SessionEnd input, with its reason; a null transcript_path is nothing to ingest', async () => {
    const d = newDaemon();
    await d.start();
    const dir = tmp();
    const file = join(dir, 'rollout-2026-01-02T10-00-00-c0dex.jsonl');
    writeFileSync(file, codexLines('c0dex', dir, 'From now on, always write commit messages in the imperative mood.'));
    const none = await d.cli(['hook', 'session-end'], {
      input: JSON.stringify({ session_id: 'eph', transcript_path: null, cwd: dir, hook_event_name: 'SessionEnd', reason: 'other' }),
    });
    expect(none.code).toBe(0);
    expect(none.stderr).toContain('nothing to ingest');
    const r = await d.cli(['hook', 'session-end'], {
      input: JSON.stringify({ session_id: 'c0dex', transcript_path: file, cwd: dir, hook_event_name: 'SessionEnd', reason: 'other' }),
    });
    expect(r.code, r.stderr).toBe(0);
    const sessions = await until(async () => {
      const s = await d.client.sessions();
      return s.find((x: SessionRecord) => x.state === 'ingested') ? s : undefined;
    });
    expect(sessions.map((s) => s.sessionId)).toEqual(['c0dex']);
    expect(sessions[0]).toMatchObject({ reason: 'other' });
    expect((await d.cli(['recall', '--project', dir])).stdout).toContain('imperative mood');
  });

  it('every hook does nothing in a session nightshift started for a model call (NIGHTSHIFT_MODEL_CALL)', async () => {
    const d = newDaemon();
    await d.start();
    const dir = tmp();
    await d.cli(['remember', '--project', dir, '--stable', '--type', 'instruction', 'Use pnpm, never npm, in this repository.']);
    const file = join(dir, 'rollout.jsonl');
    writeFileSync(file, codexLines('marked', dir, 'From now on, always write commit messages in the imperative mood.'));
    const env = { NIGHTSHIFT_MODEL_CALL: '1' };
    const start = await d.cli(['hook', 'session-start'], { env, input: JSON.stringify({ session_id: 'marked', cwd: dir, source: 'startup' }) });
    const end = await d.cli(['hook', 'session-end'], {
      env,
      input: JSON.stringify({ session_id: 'marked', transcript_path: file, cwd: dir, reason: 'other' }),
    });
    expect([start.code, start.stdout, end.code, end.stderr]).toEqual([0, '', 0, '']);
    const unmarked = await d.cli(['hook', 'session-start'], { input: JSON.stringify({ session_id: 'marked', cwd: dir, source: 'startup' }) });
    expect(unmarked.stdout).toContain('Use pnpm');
    await new Promise((r) => setTimeout(r, 300));
    expect(await d.client.sessions()).toEqual([]);
  });
});
