import { chmodSync, existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { StructuredQuestion } from '../../../src/llm/backend.js';
import { createCodexCliBackend } from '../../../src/llm/backends/codex-cli.js';
import { probeCodexCli } from '../../../src/llm/backends/codex-probe.js';
import { startFakeResponses, type FakeResponses, type FakeResponsesStep } from '../../fakes/openai-responses.js';
import { CODEX_BIN, codexHome, fakeProviderOverrides, type CodexHome } from '../../helpers/codex.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const schema = {
  type: 'object',
  properties: { memories: { type: 'array', items: { type: 'string' } } },
  required: ['memories'],
  additionalProperties: false,
};
const question = (over: Partial<StructuredQuestion> = {}): StructuredQuestion => ({
  purpose: 'extract',
  system: 'You extract durable memories from a coding session. Answer with JSON only.',
  prompt: 'USER: from now on use pnpm, never npm.',
  schema,
  maxOutputTokens: 500,
  ...over,
});

/**
 * A codex on PATH that records what it was started with (pid, cwd and its contents, environment)
 * and then runs the real one; its config.toml (which the backend must not load) adds instructions.
 */
async function setup(steps: FakeResponsesStep[]): Promise<{ fake: FakeResponses; h: CodexHome; spy: string; record: () => Record<string, string> }> {
  const fake = await startFakeResponses(steps);
  const h = codexHome('developer_instructions = "THE USER CONFIG WAS LOADED"\n');
  cleanups.push(
    () => fake.close(),
    () => h.cleanup(),
  );
  const spy = join(h.dir, 'codex-spy');
  const rec = join(h.dir, 'record');
  writeFileSync(spy, `#!/bin/sh\n{ echo "pid=$$"; echo "cwd=$(pwd)"; echo "ls=$(ls -A)"; env | sed 's/^/env:/'; } > ${rec}\nexec ${CODEX_BIN} "$@"\n`);
  chmodSync(spy, 0o755);
  const record = () =>
    Object.fromEntries(
      readFileSync(rec, 'utf8')
        .trim()
        .split('\n')
        .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
    );
  return { fake, h, spy, record };
}

const backend = (s: { fake: FakeResponses; h: CodexHome; spy: string }, timeoutSeconds = 60) =>
  createCodexCliBackend({
    binary: s.spy,
    timeoutSeconds,
    env: { ...s.h.env, SECRET_TOKEN: 'not for codex' },
    extraConfig: fakeProviderOverrides(s.fake.url),
    model: 'fake-model',
  });

describe('codex-cli backend (the real codex exec against a fake Responses API on loopback)', () => {
  it('asks with no tools, a small request and the schema; parses the structured answer and the usage', async () => {
    const s = await setup([{ text: '{"memories":["use pnpm"]}', usage: { input_tokens: 321, output_tokens: 9 } }]);
    const a = await backend(s).ask(question());
    expect(a).toMatchObject({ ok: true, value: { memories: ['use pnpm'] }, usage: { inputTokens: 321, outputTokens: 9 } });

    const calls = s.fake.requests.filter((q) => q.path.endsWith('/responses'));
    expect(calls).toHaveLength(1);
    const body = calls[0]?.body ?? {};
    expect(body.tools ?? []).toEqual([]);
    expect(calls[0]?.raw.length).toBeLessThan(6000);
    expect(body.model).toBe('fake-model');
    expect(body.text).toMatchObject({ format: { type: 'json_schema', strict: true, schema } });
    const input = JSON.stringify(body.input);
    expect(input).toContain('You extract durable memories');
    expect(input).toContain('from now on use pnpm');
    expect(input).not.toContain('You are a coding agent'); // codex's own instructions are replaced

    const r = s.record();
    expect(r.ls).toBe(''); // an empty working directory
    expect(r.cwd).toMatch(/nightshift-codex-/);
    const envKeys = Object.keys(r)
      .filter((k) => k.startsWith('env:'))
      .map((k) => k.slice(4))
      .sort();
    expect(envKeys.filter((k) => !['PWD', 'SHLVL', '_', 'OLDPWD'].includes(k))).toEqual([
      'CODEX_HOME',
      'HOME',
      'NIGHTSHIFT_MODEL_CALL',
      'OPENAI_FAKE_KEY',
      'PATH',
    ]);
    expect(r['env:NIGHTSHIFT_MODEL_CALL']).toBe('1');
    expect(existsSync(r.cwd ?? '/nonexistent')).toBe(false); // the temp dir is gone
    expect(calls[0]?.raw).not.toContain('THE USER CONFIG WAS LOADED');
    const sessions = join(s.h.dir, 'sessions');
    expect(existsSync(sessions) ? readdirSync(sessions, { recursive: true }).filter((f) => String(f).endsWith('.jsonl')) : []).toEqual([]);
  }, 60_000);

  it('makes a schema with optional properties strict for the API, and drops the nulls that made the model write', async () => {
    // The shape of memory extraction's tool schema: optional `replaces`, no additionalProperties.
    const loose = {
      type: 'object',
      properties: {
        memories: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              content: { type: 'string' },
              scope: { type: 'string', enum: ['user', 'project'] },
              replaces: { type: 'array', items: { type: 'string' } },
            },
            required: ['content', 'scope'],
          },
        },
      },
      required: ['memories'],
    };
    const answer = {
      memories: [
        { content: 'use pnpm', scope: 'project', replaces: ['npm'] },
        { content: 'be brief', scope: 'user', replaces: null },
      ],
    };
    const s = await setup([{ text: JSON.stringify(answer) }]);
    const a = await backend(s).ask(question({ schema: loose }));
    expect(a).toMatchObject({
      ok: true,
      value: {
        memories: [
          { content: 'use pnpm', scope: 'project', replaces: ['npm'] },
          { content: 'be brief', scope: 'user' },
        ],
      },
    });
    expect(a.ok && JSON.stringify(a.value)).not.toContain('null');
    const sent = (s.fake.requests[0]?.body?.text as { format: { schema: { properties: { memories: { items: Record<string, unknown> } } } } }).format.schema;
    expect(sent.properties.memories.items).toMatchObject({ required: ['content', 'scope', 'replaces'], additionalProperties: false });
  }, 60_000);

  it('a malformed answer and a failing API come back as ok:false, never a throw', async () => {
    const s = await setup([
      { text: 'Sure! Here are the memories: use pnpm' },
      { text: '["an array"]' },
      { status: 400, message: 'model not supported' },
      { failed: 'overloaded' },
    ]);
    const b = backend(s);
    const answers = [await b.ask(question()), await b.ask(question()), await b.ask(question()), await b.ask(question())];
    expect(answers.map((a) => (a.ok ? 'ok' : a.code))).toEqual(['invalid_answer', 'invalid_answer', 'cli_failed', 'cli_failed']);
    expect(s.fake.requests.filter((q) => q.path.endsWith('/responses'))).toHaveLength(4); // no retries
    const [notJson, , http, failed] = answers;
    expect(notJson?.ok === false && notJson.message).not.toContain('pnpm'); // never the answer's text
    expect(http?.ok === false && http.message).toContain('model not supported');
    expect(failed?.ok === false && failed.message).toContain('overloaded');
  }, 90_000);

  it('ends codex (by its process group) at the deadline and answers timeout', async () => {
    const s = await setup([{ text: '{"memories":[]}', delayMs: 30_000 }]);
    const started = Date.now();
    const a = await backend(s, 3).ask(question());
    expect(a).toMatchObject({ ok: false, code: 'timeout' });
    expect(Date.now() - started).toBeLessThan(10_000);
    const pid = Number(s.record().pid);
    expect(() => process.kill(pid, 0)).toThrow();
  }, 30_000);
});

describe('codex-cli backend: abort', () => {
  it('ends codex when the question is aborted and answers aborted', async () => {
    const s = await setup([{ text: '{"memories":[]}', delayMs: 30_000 }]);
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 1500);
    const a = await backend(s).ask(question({ signal: ac.signal }));
    expect(a).toMatchObject({ ok: false, code: 'aborted' });
    expect(() => process.kill(Number(s.record().pid), 0)).toThrow();
  }, 30_000);
});

describe('probeCodexCli', () => {
  it('reads the version and finds every flag in the installed codex exec --help', async () => {
    const h = codexHome();
    cleanups.push(() => h.cleanup());
    const p = await probeCodexCli(CODEX_BIN, h.env);
    expect(p).toMatchObject({ path: CODEX_BIN, found: true, version: '0.169.0', missingFlags: [] });
    expect(p.problem).toBeUndefined();
    expect(await probeCodexCli(CODEX_BIN, h.env)).toBe(p); // cached
  });

  it('says what is wrong with a missing binary and with a codex too old for --output-schema', async () => {
    const h = codexHome();
    cleanups.push(() => h.cleanup());
    const missing = await probeCodexCli('codex-not-here', { ...h.env, PATH: h.dir });
    expect(missing).toMatchObject({ found: false, problem: expect.stringMatching(/not found on PATH.*memory\.codexPath/) });
    const old = join(h.dir, 'codex');
    writeFileSync(
      old,
      '#!/bin/sh\ncase "$1" in --version) echo "codex-cli 0.20.0";; *) echo "Usage: codex exec [OPTIONS]\\n  -c, --config <key=value>\\n  -m, --model <MODEL>\\n  --json\\n";; esac\n',
    );
    chmodSync(old, 0o755);
    const p = await probeCodexCli('codex', { ...h.env, PATH: h.dir });
    expect(p).toMatchObject({ path: old, found: true, version: '0.20.0' });
    expect(p.missingFlags).toEqual(['--output-schema', '--output-last-message', '--ephemeral', '--sandbox', '--skip-git-repo-check', '--ignore-user-config']);
    expect(p.problem).toMatch(/0\.20\.0 exec lacks --output-schema, --output-last-message; update/);
    const a = await createCodexCliBackend({ binary: 'codex', timeoutSeconds: 5, env: { ...h.env, PATH: h.dir } }).ask(question());
    expect(a).toMatchObject({ ok: false, code: 'cli_unavailable' });
  });
});
