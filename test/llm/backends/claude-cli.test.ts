/**
 * The claude-cli backend against the real `claude` (the pinned devDependency) talking to the fake
 * Messages server: what the CLI sends is read from the server's request log. HOME and
 * CLAUDE_CONFIG_DIR are a temp dir, so the machine's ~/.claude is never read or written.
 */
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { MODEL_CALL_MARKER, type StructuredQuestion } from '../../../src/llm/backend.js';
import { createClaudeCliBackend, type ClaudeCliOptions } from '../../../src/llm/backends/claude-cli.js';
import { probeClaudeCli } from '../../../src/llm/backends/claude-cli-probe.js';
import { CLAUDE, claudeHome } from '../../helpers/claude-cli.js';
import { apiError, fakeEstimate, reply, text, toolUse, startFakeAnthropic, type FakeAnthropic, type FakeStep } from '../../fakes/anthropic.js';

const log = pino({ level: 'silent' });
const SYSTEM = 'You answer with a list of colours. NIGHTSHIFT-SYSTEM-PROMPT';
const SCHEMA = { type: 'object', properties: { colours: { type: 'array', items: { type: 'string' } } }, required: ['colours'] };
const question = (over: Partial<StructuredQuestion> = {}): StructuredQuestion => ({
  purpose: 'extract',
  system: SYSTEM,
  prompt: 'Name two colours. PROMPT-ON-STDIN',
  schema: SCHEMA,
  maxOutputTokens: 700,
  ...over,
});

let fake: FakeAnthropic | undefined;
let home: string | undefined;
afterEach(async () => {
  await fake?.close();
  if (home) rmSync(home, { recursive: true, force: true });
  fake = home = undefined;
});

async function backend(steps: FakeStep[], over: Partial<ClaudeCliOptions> = {}) {
  fake = await startFakeAnthropic({ steps, defaultStep: reply('(no more scripted answers)') });
  const h = claudeHome(fake.url);
  home = h.dir;
  const env = h.env;
  return createClaudeCliBackend({ binary: CLAUDE, model: 'claude-haiku-4-5', maxUsdPerCall: 0.05, timeoutSeconds: 30, env, cwd: home, log, ...over });
}

const systemTexts = (i: number): string[] => {
  const s = fake?.requests[i]?.body.system;
  return Array.isArray(s) ? s.map((b) => b.text) : [String(s)];
};

describe('claude-cli backend (real claude -p against the fake Messages API)', () => {
  it('probes the installed version: all the flags it uses are there', async () => {
    const p = await probeClaudeCli(CLAUDE);
    expect(p).toMatchObject({ found: true, missingFlags: [] });
    expect(p.version).toMatch(/^2\.\d+\.\d+/);
    expect(p.problem).toBeUndefined();
  });

  it('sends our system prompt, no tools but the structured-output one, a small request; parses the answer', async () => {
    const b = await backend([reply([toolUse('StructuredOutput', { colours: ['red', 'blue'] })])]);
    const a = await b.ask(question());
    expect(a).toMatchObject({ ok: true, value: { colours: ['red', 'blue'] } });
    expect(a.usage?.inputTokens).toBeGreaterThan(0);
    expect(a.usage?.costUsd).toBeGreaterThan(0);
    expect(fake?.requests).toHaveLength(1);
    const body = fake?.requests[0]?.body;
    expect(body?.model).toBe('claude-haiku-4-5');
    expect((body?.tools ?? []).map((t) => ('name' in t ? t.name : t.type))).toEqual(['StructuredOutput']);
    expect(body?.max_tokens).toBe(700);
    expect(body?.thinking).toEqual({ type: 'disabled' });
    // Claude Code's own system prompt is not sent: ours, its one-line identity and a billing header.
    const sys = systemTexts(0);
    expect(sys).toContain(SYSTEM);
    expect(sys.join('\n').length).toBeLessThan(SYSTEM.length + 300);
    expect(JSON.stringify(body?.messages)).toContain('PROMPT-ON-STDIN');
    // ~30,000 tokens for a default `claude -p`; here the prompt, the schema and a few reminders.
    expect(fakeEstimate(body ?? {})).toBeLessThan(1000);
    // Nothing but the one call; Claude Code ≤ 2.1.197 (the last for Node < 22, pinned) first sends a
    // bodiless HEAD / to the same base URL to warm the connection up, which carries nothing.
    expect(fake?.others.filter((r) => !(r.method === 'HEAD' && r.path === '/' && r.raw === ''))).toEqual([]);
    expect(existsSync(join(home ?? '', '.claude'))).toBe(true); // its state went to the temp config dir
  });

  it('accepts JSON in a text answer (the CLI asks once more for the tool, then gives up)', async () => {
    const b = await backend([reply('{"colours":["green"]}'), reply([text('{"colours":["green"]}')])]);
    const a = await b.ask(question());
    expect(a).toMatchObject({ ok: true, value: { colours: ['green'] } });
  });

  it('an API error is a failed answer with a code, not a throw', async () => {
    const b = await backend([apiError(400, 'invalid request: nope'), apiError(400, 'invalid request: nope')]);
    const a = await b.ask(question());
    expect(a).toMatchObject({ ok: false, code: 'api_error' });
    if (!a.ok) expect(a.message).toMatch(/400/);
  });

  it('an answer that never matches the schema fails (after the CLI’s own retries)', async () => {
    const bad = reply([toolUse('StructuredOutput', { colours: 'red' })]);
    const b = await backend([bad, bad, bad, bad, bad, bad]);
    const a = await b.ask(question());
    expect(a).toMatchObject({ ok: false, code: 'error_max_structured_output_retries' });
  });

  it('a call that does not answer in time is ended', async () => {
    const b = await backend([reply([toolUse('StructuredOutput', { colours: [] })], { delayMs: 20_000 })], { timeoutSeconds: 2 });
    const started = Date.now();
    const a = await b.ask(question());
    expect(a).toMatchObject({ ok: false, code: 'timeout' });
    expect(Date.now() - started).toBeLessThan(8000);
  });

  it('a missing binary is a failed answer naming it', async () => {
    const b = await backend([], { binary: '/nonexistent/claude' });
    const a = await b.ask(question());
    expect(a).toMatchObject({ ok: false, code: 'cli_not_found' });
    if (!a.ok) expect(a.message).toContain('/nonexistent/claude');
  });
});

describe('claude-cli backend child process (a fixture claude that records what it got)', () => {
  it('passes only the environment it needs, the marker, and the prompt on stdin', async () => {
    home = mkdtempSync('/tmp/ns-claude-');
    const bin = join(home, 'claude');
    // Old-style help: no --json-schema, no --tools; the backend leaves them out.
    writeFileSync(
      bin,
      `#!/bin/sh
case "$1" in --version) echo "1.0.0 (Claude Code)"; exit 0;; --help) echo "  -p, --print  --output-format <f>  --model <m>  --system-prompt <p>"; exit 0;; esac
env > "${home}/env"; printf '%s\\n' "$@" > "${home}/args"; cat > "${home}/stdin"
echo '{"type":"result","subtype":"success","is_error":false,"result":"{\\"colours\\":[\\"red\\"]}","usage":{"input_tokens":10,"output_tokens":2}}'
`,
    );
    chmodSync(bin, 0o755);
    const env = {
      HOME: home,
      PATH: process.env['PATH'] ?? '',
      ANTHROPIC_API_KEY: 'k',
      DAEMON_SECRET: 'nope',
      NIGHTSHIFT_HOME: '/x',
      CLAUDE_PROJECT_DIR: '/some/repo',
    };
    const b = createClaudeCliBackend({ binary: bin, model: 'claude-haiku-4-5', maxUsdPerCall: 0.05, timeoutSeconds: 10, env, cwd: home, log });
    const a = await b.ask(question());
    expect(a).toMatchObject({ ok: true, value: { colours: ['red'] } });
    const childEnv = readFileSync(join(home, 'env'), 'utf8');
    expect(childEnv).toContain(`${MODEL_CALL_MARKER}=1`);
    expect(childEnv).toContain('ANTHROPIC_API_KEY=k');
    expect(childEnv).toContain('CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1');
    expect(childEnv).not.toContain('DAEMON_SECRET');
    expect(childEnv).not.toContain('NIGHTSHIFT_HOME');
    expect(childEnv).not.toContain('CLAUDE_PROJECT_DIR');
    const args = readFileSync(join(home, 'args'), 'utf8').split('\n');
    expect(args).toEqual(expect.arrayContaining(['-p', '--model', 'claude-haiku-4-5', '--system-prompt', SYSTEM]));
    expect(args).not.toContain('--json-schema');
    expect(args).not.toContain('--tools');
    expect(args.join(' ')).not.toContain('PROMPT-ON-STDIN');
    // Without --json-schema the schema travels in the prompt.
    const stdin = readFileSync(join(home, 'stdin'), 'utf8');
    expect(stdin).toContain('PROMPT-ON-STDIN');
    expect(stdin).toContain('"colours"');
  });

  it('a version without an essential flag is unusable, and says which', async () => {
    home = mkdtempSync('/tmp/ns-claude-');
    const bin = join(home, 'claude');
    writeFileSync(bin, '#!/bin/sh\necho "0.9.0 (Claude Code)"; echo "  -p, --print  --model <m>"\n');
    chmodSync(bin, 0o755);
    const p = await probeClaudeCli(bin);
    expect(p).toMatchObject({ found: true, version: '0.9.0', missingFlags: expect.arrayContaining(['--output-format', '--json-schema']) as unknown });
    expect(p.problem).toContain('--output-format');
    const b = createClaudeCliBackend({ binary: bin, model: 'm', maxUsdPerCall: 0.05, timeoutSeconds: 5, cwd: home, log });
    expect(await b.ask(question())).toMatchObject({ ok: false, code: 'cli_unusable' });
  });
});
