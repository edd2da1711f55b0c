/**
 * The shell hook entry `nightshift integrate` installs (src/integrate/hook-entry.ts), run as the
 * agents run it: `/bin/sh <entry> <hook>` with the hook's JSON on stdin. Its answers are the Node
 * hook's, byte for byte, through perl and through curl (daemons with the same state, one asked each
 * way, in step); it fails open; it never evaluates its input. Each test's PATH holds only the clients
 * it names, which note that they ran (helpers/hook-clients.ts).
 */
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { connect, createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { InjectionsResponse } from '../../src/api/injections.js';
import type { SessionRecord } from '../../src/api/memory.js';
import { CLI, daemonsPerTest, runCli, tempDirsPerTest, until, type TestDaemon } from '../helpers/daemon.js';
import { clientPath, type HookClient } from '../helpers/hook-clients.js';
import { writeClaudeTranscript } from '../helpers/transcripts.js';

const newDaemon = daemonsPerTest(afterEach);
const tmp = tempDirsPerTest(afterEach, 'ns-entry-');

interface Ran {
  code: number | null;
  stdout: Buffer;
  stderr: string;
  ms: number;
}

function run(cmd: string, args: string[], env: Record<string, string>, cwd: string, input: Buffer | string): Promise<Ran> {
  return new Promise((done, fail) => {
    const t0 = Date.now();
    const p = spawn(cmd, args, { env, cwd, stdio: ['pipe', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    let stderr = '';
    p.stdout.on('data', (c: Buffer) => out.push(c));
    p.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const timer = setTimeout(() => {
      p.kill('SIGKILL');
      fail(new Error(`${cmd} ${args.join(' ')} timed out; stderr: ${stderr}`));
    }, 30_000);
    p.on('error', fail);
    p.on('close', (code) => {
      clearTimeout(timer);
      done({ code, stdout: Buffer.concat(out), stderr, ms: Date.now() - t0 });
    });
    p.stdin.on('error', () => undefined); // a hook may exit before reading all of a huge input
    p.stdin.end(input);
  });
}

/** Installs the entry for this daemon's home through `nightshift integrate codex`; returns its path. */
async function install(d: TestDaemon): Promise<string> {
  const home = tmp();
  const r = await runCli(['integrate', 'codex'], { ...d.env, HOME: home, CODEX_HOME: join(home, '.codex') });
  expect(r.code, r.stderr).toBe(0);
  return join(d.paths.stateDir, 'nightshift-hook.sh');
}

/** Where the answer is under test, not the speed: a loaded machine must not turn it into nothing. */
const PATIENT = { NIGHTSHIFT_PROMPT_HOOK_TIMEOUT_MS: '10000', NIGHTSHIFT_HOOK_TIMEOUT_MS: '10000' };
const entry = (file: string, d: TestDaemon, hook: string, input: Buffer | string, cwd: string, env: Record<string, string> = PATIENT) =>
  run('/bin/sh', [file, hook], { ...d.env, ...env }, cwd, input);
const nodeHook = (d: TestDaemon, hook: string, input: Buffer | string, cwd: string) =>
  run(process.execPath, [CLI, 'hook', hook], { ...d.env, ...PATIENT }, cwd, input);

const RULE = 'Use pnpm, never npm, in this repository.';
const ASK = 'should I use pnpm or npm to install packages in this repository?';

async function seed(d: TestDaemon, project: string): Promise<void> {
  await d.cli(['remember', '--project', project, '--stable', '--type', 'instruction', RULE]);
  await d.cli(['remember', '--project', project, 'The staging database is reset every Sunday night.']);
  const failed = await d.client.run({ command: ['sh', '-c', 'echo "FAIL src/totals.test.ts"; exit 1'], cwd: project, name: 'unit tests', stdin: false });
  await until(async () => (await d.client.get(failed.id)).status === 'exited');
}

/** The environment of an entry that may use only these clients, and what it used. */
function only(clients: HookClient[], env: Record<string, string> = PATIENT) {
  const path = clientPath(tmp(), clients);
  return { env: { ...env, PATH: path.PATH }, used: path.used };
}

describe('the hook entry answers as the Node hook does', () => {
  it('byte for byte, through perl and through curl, over every hook event, both agents’ input, odd and malformed input', async () => {
    const project = tmp();
    const a = newDaemon();
    await a.start();
    await seed(a, project);
    await a.stop();
    // Twins with the same state (memories, tasks, ledger), so each question can be asked each way.
    const twin = () => {
      const t = newDaemon();
      cpSync(a.paths.stateDir, t.paths.stateDir, { recursive: true });
      rmSync(join(t.paths.stateDir, 'daemon.lock'), { force: true });
      return t;
    };
    const b = twin();
    const c = twin();
    await a.start();
    await b.start();
    await c.start();
    const viaPerl = { d: b, file: await install(b), ...only(['perl']) };
    const viaCurl = { d: c, file: await install(c), ...only(['curl']) };
    const transcript = join(project, 'session.jsonl');
    writeClaudeTranscript(transcript, [{ role: 'user', text: 'From now on, always write commit messages in the imperative mood.' }], {
      sessionId: 'c1',
      cwd: project,
    });

    const claude = (event: string, more: Record<string, unknown>) =>
      JSON.stringify({ session_id: 'c1', transcript_path: transcript, cwd: project, permission_mode: 'default', hook_event_name: event, ...more });
    const codex = (event: string, more: Record<string, unknown>) =>
      JSON.stringify({ session_id: 'x1', turn_id: 't1', transcript_path: null, cwd: project, hook_event_name: event, model: 'gpt-5', ...more });
    const utf8Bad = Buffer.concat([
      Buffer.from(`{"session_id":"c3","cwd":"${project}","prompt":"${ASK} \u00e9 `),
      Buffer.from([0xff, 0xfe, 0xc3]),
      Buffer.from('"}'),
    ]);
    const huge = JSON.stringify({ session_id: 'c4', cwd: project, hook_event_name: 'UserPromptSubmit', prompt: `${ASK} ${'log line\\n'.repeat(1_100_000)}` });
    // [hook, input, what it must print: something, or nothing]
    const cases: [string, Buffer | string, boolean][] = [
      ['session-start', claude('SessionStart', { source: 'startup' }), true],
      ['session-start', claude('SessionStart', { source: 'resume' }), true],
      ['session-start', codex('SessionStart', { source: 'startup' }), true],
      ['session-start', '', true], // no input at all: the hook's working directory is the project
      ['user-prompt-submit', claude('UserPromptSubmit', { prompt: ASK }), false], // given at its start
      ['user-prompt-submit', claude('UserPromptSubmit', { session_id: 'p1', prompt: ASK }), true],
      ['user-prompt-submit', claude('UserPromptSubmit', { session_id: 'p1', prompt: ASK }), false], // given already
      ['user-prompt-submit', codex('UserPromptSubmit', { session_id: 'x2', prompt: `${ASK} "quoted" $(touch x) \`id\`` }), true],
      ['user-prompt-submit', claude('UserPromptSubmit', { session_id: 'c2', prompt: 'what a lovely afternoon' }), false],
      ['user-prompt-submit', claude('UserPromptSubmit', { session_id: 'c2', prompt: '' }), false],
      ['user-prompt-submit', utf8Bad, true],
      ['user-prompt-submit', huge, true],
      ['session-start', 'not json', false],
      ['user-prompt-submit', '[1, 2]', false],
      ['session-start', JSON.stringify({ session_id: 5, cwd: project }), false],
      ['session-start', JSON.stringify({ cwd: 'relative/dir' }), false],
      ['session-end', claude('SessionEnd', { reason: 'exit' }), false],
      ['pre-compact', claude('PreCompact', { trigger: 'auto' }), false],
      ['session-end', codex('SessionEnd', { reason: 'other' }), false],
    ];
    for (const [i, [hook, input, prints]] of cases.entries()) {
      const viaNode = await nodeHook(a, hook, input, project);
      for (const [client, via] of [
        ['perl', viaPerl],
        ['curl', viaCurl],
      ] as const) {
        const viaEntry = await entry(via.file, via.d, hook, input, project, via.env);
        const what = `${client}, case ${i}: ${hook} ${String(input).slice(0, 80)}`;
        expect(viaEntry.code, what).toBe(0);
        expect(viaEntry.stdout.toString('utf8'), what).toBe(viaNode.stdout.toString('utf8'));
        expect(viaEntry.stdout.equals(viaNode.stdout), what).toBe(true);
        expect(viaEntry.stdout.length > 0, `${what}: ${viaNode.stderr}`).toBe(prints);
      }
    }
    expect(viaPerl.used()).toEqual(cases.map(() => 'perl'));
    expect(viaCurl.used()).toEqual(cases.map(() => 'curl'));
    const first = (await nodeHook(a, 'session-start', claude('SessionStart', { session_id: 'c9', source: 'startup' }), project)).stdout.toString();
    expect(first).toContain('Use pnpm, never npm');
    // The hand-over reached the entries' daemons: the transcript is ingested there.
    for (const d of [b, c])
      await until(async () => (await d.client.sessions()).some((s: SessionRecord) => s.path === transcript && s.state === 'ingested'), 15_000);
  }, 180_000);
});

describe.each(['perl', 'curl'] as const)('the hook entry fails open, through %s', (client) => {
  it('no daemon: a prompt prints nothing, starts no daemon, no client and no Node; a session start runs the Node hook', async () => {
    const d = newDaemon(); // never started
    const file = await install(d);
    const project = tmp();
    const via = only([client], { ...PATIENT, NIGHTSHIFT_NO_AUTOSTART: '' });
    const p = await entry(file, d, 'user-prompt-submit', JSON.stringify({ session_id: 's', cwd: project, prompt: ASK }), project, via.env);
    expect([p.code, p.stdout.length, p.stderr]).toEqual([0, 0, '']);
    await new Promise((r) => setTimeout(r, 500));
    expect(existsSync(d.paths.socket)).toBe(false);
    expect(via.used()).toEqual([]);
    const s = await entry(file, d, 'session-start', JSON.stringify({ session_id: 's', cwd: project }), project, only([client]).env);
    expect([s.code, s.stdout.length]).toEqual([0, 0]);
    expect(s.stderr).toContain('daemon not running (not starting it: NIGHTSHIFT_NO_AUTOSTART=1)');
  });

  it('a socket nobody listens on: the prompt prints nothing; the session end reaches the Node hook whole, which spools it', async () => {
    const d = newDaemon();
    await d.start();
    const file = await install(d);
    await d.stop('SIGKILL'); // leaves its socket behind
    expect(existsSync(d.paths.socket)).toBe(true);
    const project = tmp();
    const transcript = join(project, 'gone.jsonl');
    writeClaudeTranscript(transcript, [{ role: 'user', text: 'Always run the linter before committing.' }], { sessionId: 'g1', cwd: project });
    const via = only([client]);
    const p = await entry(file, d, 'user-prompt-submit', JSON.stringify({ session_id: 'g1', cwd: project, prompt: ASK }), project, via.env);
    expect([p.code, p.stdout.length, p.stderr]).toEqual([0, 0, '']);
    const e = await entry(
      file,
      d,
      'session-end',
      JSON.stringify({ session_id: 'g1', transcript_path: transcript, cwd: project, reason: 'exit' }),
      project,
      via.env,
    );
    expect(e.code, e.stderr).toBe(0);
    expect(e.stderr).toContain('the session will be ingested from');
    expect(readdirSync(d.paths.spoolDir)).toHaveLength(1);
    expect(via.used()).toEqual([client, client]); // the client met the refusal, not the shell
  });

  describe('a daemon that never answers', () => {
    let server: Server | undefined;
    afterEach(() => server?.close());
    it('the prompt and the session start give up at their timeouts, print nothing and exit 0', async () => {
      const d = newDaemon();
      const file = await install(d);
      mkdirSync(d.paths.runtimeDir, { recursive: true });
      server = createServer(() => undefined); // accepts, reads nothing, answers nothing
      await new Promise<void>((r) => server?.listen(d.paths.socket, r));
      const project = tmp();
      const via = only([client], { NIGHTSHIFT_PROMPT_HOOK_TIMEOUT_MS: '200', NIGHTSHIFT_HOOK_TIMEOUT_MS: '300' });
      const p = await entry(file, d, 'user-prompt-submit', JSON.stringify({ session_id: 's', cwd: project, prompt: ASK }), project, via.env);
      expect([p.code, p.stdout.length]).toEqual([0, 0]);
      const s = await entry(file, d, 'session-start', JSON.stringify({ session_id: 's', cwd: project }), project, via.env);
      expect([s.code, s.stdout.length]).toEqual([0, 0]);
      expect(via.used()).toEqual([client, client]);
      // It waited its time, and gave up well before perl's whole-second backstop (alarm at 1 s).
      expect(p.ms).toBeGreaterThanOrEqual(200);
      expect(s.ms).toBeGreaterThanOrEqual(300);
      expect(Math.max(p.ms, s.ms)).toBeLessThan(client === 'perl' ? 900 : 1500);
    });
  });
});

describe('the hook entry falls back client by client', () => {
  it('without perl, curl answers; without perl and curl, the Node hook does', async () => {
    const d = newDaemon();
    await d.start();
    const project = tmp();
    await seed(d, project);
    const file = await install(d);
    const input = (s: string) => JSON.stringify({ session_id: s, cwd: project, source: 'startup' });
    const curl = only(['curl']);
    const viaCurl = await entry(file, d, 'session-start', input('n1'), project, curl.env);
    expect(viaCurl.code, viaCurl.stderr).toBe(0);
    expect(viaCurl.stdout.toString()).toContain('Use pnpm, never npm');
    expect(curl.used()).toEqual(['curl']);
    const none = only([]);
    const viaNode = await entry(file, d, 'session-start', input('n2'), project, none.env);
    expect(viaNode.code, viaNode.stderr).toBe(0);
    expect(viaNode.stdout.toString()).toContain('Use pnpm, never npm');
    expect(none.used()).toEqual([]);
  });
});

describe('the hook entry keeps its delivery rule', () => {
  it('an answer the caller never read is not recorded as given; one it read is', async () => {
    const d = newDaemon();
    await d.start();
    const project = tmp();
    await seed(d, project);
    const body = JSON.stringify({ session_id: 'gone', cwd: project, prompt: ASK });
    // The whole request, then the connection closed before the answer is read.
    await new Promise<void>((resolve) => {
      const s = connect(d.paths.socket, () =>
        s.end(`POST /v1/hook/user-prompt-submit HTTP/1.1\r\nhost: x\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`, () => s.destroy()),
      );
      s.on('close', () => resolve());
      s.on('error', () => resolve());
    });
    await new Promise((r) => setTimeout(r, 300));
    const ledger = async (session: string) => JSON.parse((await d.cli(['injections', '--session', session, '--json'])).stdout) as InjectionsResponse;
    expect((await ledger('gone')).injections).toEqual([]);
    const file = await install(d);
    const via = only(['perl']);
    const r = await entry(file, d, 'user-prompt-submit', JSON.stringify({ session_id: 'read', cwd: project, prompt: ASK }), project, via.env);
    expect(r.stdout.toString()).toContain('Use pnpm');
    expect(via.used()).toEqual(['perl']);
    expect((await ledger('read')).injections).toHaveLength(1);
  });
});

describe('the hook entry never evaluates its input', () => {
  it.each(['perl', 'curl'] as const)(
    'through %s: quotes, $(…), backticks, NUL, invalid UTF-8, a hostile working directory and 10 MB: exit 0, nothing run, the answer or nothing',
    async (client) => {
      const d = newDaemon();
      await d.start();
      const project = tmp();
      await seed(d, project);
      const file = await install(d);
      const via = only([client]);
      let calls = 0;
      const ask = (hook: string, input: Buffer | string, cwd = project) => (calls++, entry(file, d, hook, input, cwd, via.env));
      const canary = join(project, 'pwned');
      const hostile = [`"; touch ${canary}; echo "`, `$(touch ${canary})`, `\`touch ${canary}\``, `'$(touch ${canary})'`, `\\"; touch ${canary} #`, '%s%n%x'];
      for (const [i, bad] of hostile.entries()) {
        const r = await ask('user-prompt-submit', JSON.stringify({ session_id: `h${i}`, cwd: project, prompt: `${ASK} ${bad}` }));
        expect(r.code).toBe(0);
        expect(r.stdout.toString()).toContain('Use pnpm');
      }
      // A working directory named to break out of the header the entry sends.
      const odd = join(project, `$(touch pwned) \`touch pwned\` "q" 'q'`);
      mkdirSync(odd);
      const start = await ask('session-start', '', odd);
      expect(start.code).toBe(0);
      expect(readdirSync(odd)).toEqual([]);
      // One named to split it: no such header is sent (the daemon would refuse the request, or read
      // a header the name made up), so the input's cwd is read; an input without one gets nothing.
      const split = join(project, 'nl\r\nx-nightshift-cwd: elsewhere\nx');
      mkdirSync(split);
      const p = await ask('user-prompt-submit', JSON.stringify({ session_id: 'nl', cwd: project, prompt: ASK }), split);
      expect(p.stdout.toString()).toContain('Use pnpm');
      const none = await ask('session-start', '', split);
      expect([none.code, none.stdout.length]).toEqual([0, 0]);
      expect(readdirSync(split)).toEqual([]);
      const nul = Buffer.concat([Buffer.from(`{"session_id":"n","cwd":"${project}","prompt":"${ASK} `), Buffer.from([0]), Buffer.from('"}')]);
      const escapedNul = JSON.stringify({ session_id: 'n2', cwd: project, prompt: `${ASK} \u0000 $(touch ${canary})` });
      const invalid = Buffer.concat([
        Buffer.from(`{"session_id":"u","cwd":"${project}","prompt":"${ASK} `),
        Buffer.from([0xc0, 0xff, 0x80]),
        Buffer.from('"}'),
      ]);
      const tenMb = Buffer.alloc(10 * 1024 * 1024, '$(touch x) `y` "');
      const tenMbPrompt = JSON.stringify({ session_id: 't', cwd: project, prompt: `${ASK} ${'$(touch z) '.repeat(1_000_000)}` });
      const tenMbStart = JSON.stringify({ session_id: 't', cwd: project, junk: 'x'.repeat(10 * 1024 * 1024) });
      const expectations: [string, Buffer | string, 'answer' | 'nothing'][] = [
        ['user-prompt-submit', nul, 'nothing'], // a raw NUL is no JSON
        ['user-prompt-submit', escapedNul, 'answer'],
        ['user-prompt-submit', invalid, 'answer'],
        ['user-prompt-submit', tenMb, 'nothing'],
        ['session-start', tenMb, 'nothing'],
        ['user-prompt-submit', tenMbPrompt, 'answer'],
        ['session-start', tenMbStart, 'nothing'],
      ];
      for (const [hook, input, want] of expectations) {
        const r = await ask(hook, input);
        expect(r.code).toBe(0);
        expect(r.ms).toBeLessThan(10_000);
        if (want === 'nothing') expect(r.stdout.length, `${hook} ${String(input).slice(0, 60)}`).toBe(0);
        else expect(r.stdout.toString()).toMatch(/^\{"hookSpecificOutput":\{"hookEventName":"UserPromptSubmit".*Use pnpm.*\}\n$/);
      }
      expect(existsSync(canary)).toBe(false);
      expect(readdirSync(project).filter((n) => n !== 'pwned' && !n.startsWith('$(') && !n.startsWith('nl'))).toEqual([]);
      expect(via.used()).toEqual(Array.from({ length: calls }, () => client));
    },
    120_000,
  );
});
