/**
 * The real Codex CLI (the exact devDependency @openai/codex) pointed at a fake Responses API on
 * loopback: a temporary CODEX_HOME whose config.toml makes a custom model provider of the fake, so
 * codex never reads the real ~/.codex and never reaches the internet.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const CODEX_BIN = resolve(import.meta.dirname, '../../node_modules/.bin/codex');
/** OPENAI_*: the codex-cli backend passes those on. */
export const FAKE_KEY_ENV = 'OPENAI_FAKE_KEY';

/** The provider table; `retries: 0` so a failing fake fails at once. */
export function fakeProviderToml(baseUrl: string): string {
  return [
    'model = "fake-model"',
    'model_provider = "fake"',
    '[model_providers.fake]',
    'name = "fake"',
    `base_url = ${JSON.stringify(baseUrl)}`,
    `env_key = "${FAKE_KEY_ENV}"`,
    'wire_api = "responses"',
    'request_max_retries = 0',
    'stream_max_retries = 0',
    '',
  ].join('\n');
}

/** The same provider as `-c` overrides, for runs that ignore config.toml. */
export function fakeProviderOverrides(baseUrl: string): string[] {
  const p = 'model_providers.fake';
  return [
    `model_provider="fake"`,
    `${p}.name="fake"`,
    `${p}.base_url=${JSON.stringify(baseUrl)}`,
    `${p}.env_key="${FAKE_KEY_ENV}"`,
    `${p}.wire_api="responses"`,
    `${p}.request_max_retries=0`,
    `${p}.stream_max_retries=0`,
  ];
}

export interface CodexHome {
  dir: string;
  /** HOME and CODEX_HOME in the temp dir, PATH, the fake's key; nothing else of this process. */
  env: Record<string, string>;
  cleanup(): void;
}

export function codexHome(configToml?: string): CodexHome {
  const dir = mkdtempSync('/tmp/ns-codex-');
  if (configToml !== undefined) writeFileSync(join(dir, 'config.toml'), configToml);
  return {
    dir,
    env: { HOME: dir, CODEX_HOME: dir, PATH: process.env.PATH ?? '/usr/bin:/bin', [FAKE_KEY_ENV]: 'fake-key' },
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}

export interface CodexRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `codex ARGS` with this env and cwd, the prompt on stdin; killed (its process group) after `timeoutMs`. */
export function runCodex(args: string[], env: Record<string, string>, cwd: string, input = '', timeoutMs = 60_000): Promise<CodexRun> {
  return new Promise((done, fail) => {
    const p = spawn(CODEX_BIN, args, { env, cwd, stdio: ['pipe', 'pipe', 'pipe'], detached: true });
    let stdout = '';
    let stderr = '';
    p.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    p.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const timer = setTimeout(() => {
      if (p.pid) process.kill(-p.pid, 'SIGKILL');
      fail(new Error(`codex ${args.join(' ')} timed out; stderr: ${stderr}`));
    }, timeoutMs);
    p.on('error', fail);
    p.on('close', (code) => {
      clearTimeout(timer);
      done({ code, stdout, stderr });
    });
    p.stdin.end(input);
  });
}
