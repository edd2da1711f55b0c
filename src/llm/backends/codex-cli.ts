/**
 * The person's own Codex CLI as a model backend (`codex exec`, with the login they already have,
 * ChatGPT or API key). Each question is one run in an empty temporary directory, with only the
 * environment codex needs and the model-call marker, ended at the deadline. The answer is the final
 * message codex writes to --output-last-message (the JSON the schema asked for, made strict for the
 * API and back: strict-schema.ts); token usage and errors come from its --json events. Nothing of
 * the prompt or the answer is logged.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BackendAnswer, ModelBackend, ModelUsage, StructuredQuestion } from '../backend.js';
import { codexExecArgs } from './codex-args.js';
import { codexEnv, probeCodexCli, type CodexProbe } from './codex-probe.js';
import { readCodexEvents } from './codex-events.js';
import { runCli } from './run-cli.js';
import { restoreOptional, toStrictSchema } from './strict-schema.js';

export interface CodexCliOptions {
  /** memory.codexPath, or `codex` on PATH. */
  binary?: string;
  /** memory.codexModel; unset, the CLI's default model. */
  model?: string;
  /** memory.cliTimeoutSeconds. */
  timeoutSeconds: number;
  /** Where HOME, CODEX_HOME, PATH and OPENAI_* come from; default this process's environment. */
  env?: NodeJS.ProcessEnv;
  /** More `codex exec -c key=value` overrides (e.g. a model provider of the person's own). */
  extraConfig?: readonly string[];
}

const fail = (code: string, message: string, started: number, usage?: ModelUsage): BackendAnswer => ({
  ok: false,
  code,
  message,
  ...(usage && { usage }),
  ms: Date.now() - started,
});

export function createCodexCliBackend(opts: CodexCliOptions): ModelBackend {
  const binary = opts.binary ?? 'codex';
  const env = opts.env ?? process.env;
  return {
    name: 'codex-cli',
    model: opts.model ?? 'codex default',
    async ask(q: StructuredQuestion): Promise<BackendAnswer> {
      const started = Date.now();
      const probe = await probeCodexCli(binary, env);
      if (!probe.found || probe.problem) return fail('cli_unavailable', probe.problem ?? `${binary} is not usable`, started);
      const dir = await mkdtemp(join(tmpdir(), 'nightshift-codex-'));
      try {
        return await askIn(dir, probe, q, opts, env, started);
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },
  };
}

async function askIn(
  dir: string,
  probe: CodexProbe,
  q: StructuredQuestion,
  opts: CodexCliOptions,
  env: NodeJS.ProcessEnv,
  started: number,
): Promise<BackendAnswer> {
  const cwd = join(dir, 'work');
  const files = { schemaFile: join(dir, 'schema.json'), instructionsFile: join(dir, 'instructions.md'), answerFile: join(dir, 'answer.json') };
  await mkdir(cwd, { mode: 0o700 });
  await writeFile(files.schemaFile, JSON.stringify(toStrictSchema(q.schema)), { mode: 0o600 });
  await writeFile(files.instructionsFile, q.system, { mode: 0o600 });
  const args = codexExecArgs({
    flags: probe.flags,
    ...files,
    ...(opts.model !== undefined && { model: opts.model }),
    ...(opts.extraConfig && { extraConfig: opts.extraConfig }),
  });
  const r = await runCli({
    binary: probe.path,
    args,
    env: codexEnv(env),
    cwd,
    input: q.prompt,
    timeoutMs: opts.timeoutSeconds * 1000,
    ...(q.signal && { signal: q.signal }),
  });
  const events = readCodexEvents(r.stdout);
  const usage = events.usage;
  if (r.spawnError !== undefined) return fail('cli_unavailable', `cannot run ${probe.path}: ${r.spawnError}`, started);
  if (r.aborted) return fail('aborted', 'the codex call was aborted', started, usage);
  if (r.timedOut) return fail('timeout', `codex did not answer within ${opts.timeoutSeconds} s (memory.cliTimeoutSeconds)`, started, usage);
  if (r.code !== 0 || events.error !== undefined) {
    const why = events.error ?? lastLine(r.stderr) ?? `exit ${r.code ?? r.signal}`;
    return fail(/401|unauthori[sz]ed|log ?in/i.test(why) ? 'auth_error' : 'cli_failed', `codex exec failed: ${why}`, started, usage);
  }
  const text = (await readFile(files.answerFile, 'utf8').catch(() => undefined)) ?? events.lastMessage;
  if (text === undefined || text.trim() === '') return fail('invalid_answer', 'codex gave no final message', started, usage);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return fail('invalid_answer', `codex's answer is not JSON (${text.length} characters)`, started, usage);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return fail('invalid_answer', "codex's answer is not a JSON object", started, usage);
  return { ok: true, value: restoreOptional(value, q.schema), usage: usage ?? { inputTokens: 0, outputTokens: 0 }, ms: Date.now() - started };
}

/** The last non-empty stderr line, without codex's harmless PATH-alias warning; clipped. */
function lastLine(stderr: string): string | undefined {
  const lines = stderr.split('\n').filter((l) => l.trim() !== '' && !l.startsWith('WARNING: proceeding'));
  const last = lines[lines.length - 1]?.trim();
  return last === undefined ? undefined : last.slice(0, 300);
}
