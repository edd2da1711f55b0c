/**
 * Claude Code and Codex CLI hooks (Codex sends the same fields: session_id, cwd, transcript_path,
 * which is null for an ephemeral session, and reason; it reads the same hookSpecificOutput). They must never hold an agent up or fail it: session-start answers within a
 * deadline or prints nothing; session-end and pre-compact hand the transcript over and return at
 * once (spooled to disk when the daemon is down, so nothing is lost); user-prompt-submit adds what
 * matches the prompt, or nothing, and always exits 0. Whatever goes wrong on nightshift's side is
 * one line on stderr and exit 0; only hook input that is not what the agent sends exits 1, never
 * 2 (Claude Code reads 2 as "block": the prompt, the compaction). In a session nightshift itself
 * started for a model call (env NIGHTSHIFT_MODEL_CALL, MODEL_CALL_MARKER in api/model-call.ts, which
 * cli/ may not import) every hook does nothing, so an extraction never sets off another ingest.
 * Zod-free and on the light client: the CLI's fast path runs these without commander.
 */
import { readFileSync, statSync } from 'node:fs';
import { isatty } from 'node:tty';
import type { Command } from 'commander';
import { PROMPT_QUERY_CHARS } from '../api/limits.js';
import { MODEL_CALL_MARKER } from '../api/model-call.js';
import { LightClient } from '../client/light-client.js';
import { spoolIngest } from '../client/spool.js';
import { AppError, isErrno } from '../errors.js';
import { resolvePaths } from '../paths.js';

export const HOOK_NAMES = ['session-start', 'session-end', 'pre-compact', 'user-prompt-submit'] as const;
export type HookName = (typeof HOOK_NAMES)[number];

const timeoutMs = () => Number(process.env.NIGHTSHIFT_HOOK_TIMEOUT_MS) || 1500;
/** The prompt waits for this hook: a daemon slower than this adds nothing rather than delay it. */
const promptTimeoutMs = () => Number(process.env.NIGHTSHIFT_PROMPT_HOOK_TIMEOUT_MS) || 150;

type HookInput = Record<string, unknown>;

async function readStdin(): Promise<HookInput> {
  if (isatty(0)) throw new AppError('bad_request', 'hooks read the hook JSON on stdin (Claude Code and Codex send it)');
  const text = (await stdinText()).trim();
  let value: unknown;
  try {
    value = text ? JSON.parse(text) : {};
  } catch {
    throw new AppError('bad_request', 'the hook input on stdin is not valid JSON');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new AppError('bad_request', 'unexpected hook input: expected a JSON object');
  return value as HookInput;
}

/** All of stdin. Read straight from fd 0 (process.stdin's stream costs a hook ~3 ms to set up), by the stream only when fd 0 is non-blocking. */
async function stdinText(): Promise<string> {
  try {
    return readFileSync(0, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EAGAIN') throw err;
  }
  const chunks: Buffer[] = [];
  for await (const c of process.stdin) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** A string field of the hook input: absent (or empty) is undefined, anything but a string is refused. */
function text(input: HookInput, key: string, required = false): string | undefined {
  const v = input[key];
  if (v === undefined || v === null || v === '') {
    if (required) throw new AppError('bad_request', `unexpected hook input: ${key}: Required`);
    return undefined;
  }
  if (typeof v !== 'string') throw new AppError('bad_request', `unexpected hook input: ${key}: Expected string, received ${typeof v}`);
  return v;
}

/** Starts the daemon for next time without waiting for it (unless autostart is off), and says which. */
async function wakeDaemon(): Promise<string> {
  if (process.env.NIGHTSHIFT_NO_AUTOSTART === '1') return 'daemon not running (not starting it: NIGHTSHIFT_NO_AUTOSTART=1)';
  const { spawnDaemon } = await import('../client/spawn-daemon.js'); // child_process only on this cold path
  return `daemon not running; starting it in the background (pid ${spawnDaemon().pid ?? '?'})`;
}

/** The hook answer both agents read: the text as the event's additional context. */
function additional(hookEventName: string, additionalContext: string): string {
  return JSON.stringify({ hookSpecificOutput: { hookEventName, additionalContext } });
}

function note(line: string): void {
  process.stderr.write(`nightshift: ${line}\n`);
}

/** Not there at all (a path that exists but cannot be read is the daemon's to explain). */
function absent(path: string): boolean {
  try {
    statSync(path);
    return false;
  } catch (err) {
    return isErrno(err, 'ENOENT');
  }
}

async function sessionStart(): Promise<void> {
  const input = await readStdin();
  const cwd = text(input, 'cwd');
  const sessionId = text(input, 'session_id');
  const source = text(input, 'source');
  const client = new LightClient(resolvePaths().socket, timeoutMs());
  try {
    // The tasks of the project that ended since its last session, then the memories; the daemon records what it gave.
    const context = await client.inject('injectSessionStart', { project: cwd ?? process.cwd(), ...(sessionId && { sessionId }), ...(source && { source }) });
    if (context) process.stdout.write(`${additional('SessionStart', context)}\n`);
  } catch (err) {
    // No context is better than a held-up session: say why on stderr, print nothing, exit 0.
    if (err instanceof AppError && err.code === 'daemon_unavailable') note(`${await wakeDaemon()}; no memories for this session`);
    else note(`no memories for this session: ${(err as Error).message}`);
  }
}

async function sessionEnd(reason: string | undefined): Promise<void> {
  const input = await readStdin();
  const sessionId = text(input, 'session_id');
  const cwd = text(input, 'cwd');
  const why = reason ?? text(input, 'reason');
  const path = text(input, 'transcript_path');
  // Sessions that never wrote a transcript end too (`claude mcp list`): nothing to ingest, nothing wrong.
  if (path === undefined || absent(path)) {
    note(`no transcript ${path ? `at ${path}` : 'in the hook input'}; nothing to ingest`);
    return;
  }
  const req = {
    path,
    wait: false,
    ...(sessionId && { sessionId }),
    ...(cwd && { cwd }),
    ...(why && { reason: why }),
  };
  const client = new LightClient(resolvePaths().socket, timeoutMs());
  try {
    await client.ingest(req);
  } catch (err) {
    if (!(err instanceof AppError) || (err.code !== 'daemon_unavailable' && err.code !== 'timeout')) {
      note(`the session was not ingested: ${(err as Error).message}`);
      return;
    }
    const file = spoolIngest(resolvePaths().spoolDir, { ...req, wait: true });
    note(`${err.code === 'daemon_unavailable' ? await wakeDaemon() : 'the daemon did not answer in time'}; the session will be ingested from ${file}`);
  }
}

/** Never starts the daemon and never fails: a prompt goes on with nothing added rather than wait or be blocked. */
async function userPromptSubmit(): Promise<void> {
  try {
    const input = await readStdin();
    const prompt = text(input, 'prompt');
    if (!prompt) return;
    const sessionId = text(input, 'session_id');
    const cwd = text(input, 'cwd');
    const client = new LightClient(resolvePaths().socket, promptTimeoutMs());
    // One line per task outcome the session was not told yet, then what matches the prompt. Only
    // the prompt's start is the query: a huge prompt sent whole would pass the request limit.
    const query = prompt.slice(0, PROMPT_QUERY_CHARS);
    const context = await client.inject('injectPrompt', { prompt: query, ...(sessionId && { sessionId }), project: cwd ?? process.cwd(), maxChars: 2000 });
    if (context) process.stdout.write(`${additional('UserPromptSubmit', context)}\n`);
  } catch {
    // Down, slow or refusing: the prompt must not wait for nightshift, nor show its errors.
  }
}

/** Runs a hook: never rejects; bad hook input is a line on stderr and exit 1 (never 2), anything else exit 0. */
export async function runHook(name: HookName): Promise<void> {
  // Inside a model call nightshift started (an agent CLI extracting memories): do nothing at all,
  // or that call's own session end would be ingested, and extracted by another call.
  if (process.env[MODEL_CALL_MARKER]) return;
  try {
    await hook(name);
  } catch (err) {
    note((err as Error).message);
    process.exitCode = err instanceof AppError && err.code === 'bad_request' ? 1 : 0;
  }
}

function hook(name: HookName): Promise<void> {
  switch (name) {
    case 'session-start':
      return sessionStart();
    case 'session-end':
      return sessionEnd(undefined);
    case 'pre-compact':
      return sessionEnd('pre-compact');
    case 'user-prompt-submit':
      return userPromptSubmit();
  }
}

export function registerHookCommands(program: Command): void {
  const hook = program.command('hook').description('Claude Code and Codex CLI hook commands (read the hook JSON on stdin)');
  const about: Record<HookName, string> = {
    'session-start':
      "print the project's tasks that ended since its last session and the recalled memories as SessionStart additionalContext (nothing if the daemon is slow)",
    'session-end': 'hand the ended session’s transcript to the daemon for ingest and return at once',
    'pre-compact': 'ingest the transcript before Claude Code compacts it',
    'user-prompt-submit':
      'print a line per task that ended (or waits at a prompt) since, once, and what matches the prompt, new to the session, as UserPromptSubmit additionalContext (nothing if none, or the daemon is slow or down)',
  };
  for (const name of HOOK_NAMES)
    hook
      .command(name)
      .description(about[name])
      .action(() => runHook(name));
}
