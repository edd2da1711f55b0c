/**
 * The claude-cli backend: one structured question asked through the person's own `claude` and its
 * login, headless (`claude -p`, see claude-cli-args.ts), in a child with a minimal environment
 * (claude-cli-env.ts). The child runs in its own process group, ended by its pid on timeout or
 * abort. Every failure is an answer with a code; the prompt and the answer are never logged.
 */
import { tmpdir } from 'node:os';
import type { Logger } from '../../log.js';
import type { BackendAnswer, CliProbe, ModelBackend, StructuredQuestion } from '../backend.js';
import { claudeCall } from './claude-cli-args.js';
import { claudeChildEnv } from './claude-cli-env.js';
import { probeClaudeCli } from './claude-cli-probe.js';
import { readClaudeResult } from './claude-cli-result.js';
import { runCli } from './run-cli.js';

export interface ClaudeCliOptions {
  /** `claude` on PATH, or config.memory.claudePath. */
  binary: string;
  model: string;
  maxUsdPerCall: number;
  timeoutSeconds: number;
  /** Where the child's variables come from (filtered); default process.env. */
  env?: NodeJS.ProcessEnv;
  /** The child's working directory: a neutral one, so no repository's context goes along. */
  cwd?: string;
  log: Logger;
  /** Given in tests; default: probeClaudeCli(binary). */
  probe?: CliProbe;
}

export function createClaudeCliBackend(opts: ClaudeCliOptions): ModelBackend {
  const ask = async (q: StructuredQuestion): Promise<BackendAnswer> => {
    const started = Date.now();
    const ms = (): number => Date.now() - started;
    const probe = opts.probe ?? (await probeClaudeCli(opts.binary));
    if (probe.problem !== undefined) return { ok: false, code: probe.found ? 'cli_unusable' : 'cli_not_found', message: probe.problem, ms: ms() };
    if (q.signal?.aborted) return { ok: false, code: 'aborted', message: 'the call was cancelled before it started', ms: ms() };
    const call = claudeCall(q, { probe, model: opts.model, maxUsdPerCall: opts.maxUsdPerCall });
    const env = claudeChildEnv(opts.env ?? process.env, q.maxOutputTokens);
    const exit = await runCli({
      binary: probe.path,
      args: call.args,
      input: call.stdin,
      env,
      cwd: opts.cwd ?? tmpdir(),
      timeoutMs: opts.timeoutSeconds * 1000,
      ...(q.signal !== undefined && { signal: q.signal }),
    });
    if (exit.spawnError !== undefined) return { ok: false, code: 'cli_not_found', message: `could not run ${probe.path}: ${exit.spawnError}`, ms: ms() };
    if (exit.timedOut)
      return {
        ok: false,
        code: 'timeout',
        message: `claude -p did not answer within ${opts.timeoutSeconds}s (memory.cliTimeoutSeconds); it was ended`,
        ms: ms(),
      };
    if (exit.aborted) return { ok: false, code: 'aborted', message: 'the call was cancelled', ms: ms() };
    const answer = readClaudeResult(exit.stdout, exit.code);
    if (!answer.ok && answer.code === 'unparseable_output') {
      // stderr of a CLI that failed to start says why (a bad flag, no login); it holds no prompt text.
      opts.log.warn({ exitCode: exit.code, stderr: exit.stderr.slice(-500) }, 'claude -p printed no result');
    }
    return { ...answer, ms: ms() };
  };
  return { name: 'claude-cli', model: opts.model, ask };
}
