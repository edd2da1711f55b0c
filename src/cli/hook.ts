/**
 * Claude Code hooks. They must never hold an agent up: session-start answers within a deadline
 * or prints nothing; session-end and pre-compact hand the transcript over and return at once
 * (spooled to disk when the daemon is down, so nothing is lost).
 */
import type { Command } from 'commander';
import { z } from 'zod';
import { ApiClient } from '../client/api-client.js';
import { AppError } from '../errors.js';
import { renderClaudeHook } from '../client/recall-format.js';
import { spoolIngest } from '../client/spool.js';
import { resolvePaths } from '../paths.js';
import { spawnDaemon } from '../client/connect.js';

const StartInput = z.object({ cwd: z.string().min(1).optional(), source: z.string().optional(), session_id: z.string().optional() }).passthrough();
const EndInput = z
  .object({ session_id: z.string().min(1).optional(), transcript_path: z.string().min(1), cwd: z.string().min(1).optional(), reason: z.string().optional(), trigger: z.string().optional() })
  .passthrough();

const timeoutMs = () => Number(process.env.NIGHTSHIFT_HOOK_TIMEOUT_MS) || 1500;

async function readStdin(): Promise<unknown> {
  if (process.stdin.isTTY) throw new AppError('bad_request', 'hooks read the hook JSON on stdin (Claude Code sends it)');
  const chunks: Buffer[] = [];
  for await (const c of process.stdin) chunks.push(c as Buffer);
  const text = Buffer.concat(chunks).toString('utf8').trim();
  try {
    return text ? JSON.parse(text) : {};
  } catch {
    throw new AppError('bad_request', 'the hook input on stdin is not valid JSON');
  }
}

function parseInput<S extends z.ZodType>(schema: S, value: unknown): z.infer<S> {
  const r = schema.safeParse(value);
  if (!r.success) throw new AppError('bad_request', `unexpected hook input: ${r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  return r.data;
}

/** Starts the daemon for next time without waiting for it (unless autostart is off). */
function wakeDaemon(): void {
  if (process.env.NIGHTSHIFT_NO_AUTOSTART !== '1') spawnDaemon();
}

async function sessionStart(): Promise<void> {
  const input = parseInput(StartInput, await readStdin());
  const client = new ApiClient({ socket: resolvePaths().socket }, { timeoutMs: timeoutMs() });
  try {
    const r = await client.recall({ project: input.cwd ?? process.cwd() });
    if (r.items.length > 0) process.stdout.write(`${renderClaudeHook(r)}\n`);
  } catch (err) {
    // No context is better than a held-up session: say why on stderr, print nothing, exit 0.
    if (err instanceof AppError && err.code === 'daemon_unavailable') wakeDaemon();
    process.stderr.write(`nightshift: no memories injected: ${(err as Error).message}\n`);
  }
}

async function sessionEnd(reason: string | undefined): Promise<void> {
  const input = parseInput(EndInput, await readStdin());
  const req = {
    path: input.transcript_path,
    wait: false,
    ...(input.session_id && { sessionId: input.session_id }),
    ...(input.cwd && { cwd: input.cwd }),
    ...((reason ?? input.reason) && { reason: reason ?? input.reason }),
  };
  const client = new ApiClient({ socket: resolvePaths().socket }, { timeoutMs: timeoutMs() });
  try {
    await client.ingest(req);
  } catch (err) {
    if (err instanceof AppError && err.code !== 'daemon_unavailable' && err.code !== 'timeout') throw err;
    const file = spoolIngest(resolvePaths().spoolDir, { ...req, wait: true });
    if (err instanceof AppError && err.code === 'daemon_unavailable') wakeDaemon();
    process.stderr.write(`nightshift: the daemon did not take the session now; it will be ingested from ${file}\n`);
  }
}

export function registerHookCommands(program: Command): void {
  const hook = program.command('hook').description('Claude Code hook commands (read the hook JSON on stdin)');
  hook
    .command('session-start')
    .description('print the recalled memories as SessionStart additionalContext (nothing if the daemon is slow)')
    .action(sessionStart);
  hook
    .command('session-end')
    .description('hand the ended session’s transcript to the daemon for ingest and return at once')
    .action(() => sessionEnd(undefined));
  hook
    .command('pre-compact')
    .description('ingest the transcript before Claude Code compacts it')
    .action(() => sessionEnd('pre-compact'));
}
