/** Exit codes, defined once (README § Exit codes), and how every command reports a failure. Commander-free: the fast path uses it. */
import { AppError, type ErrorCode } from '../errors.js';

export const EXIT = {
  ok: 0,
  /** It could not be done: the daemon is unreachable, no such task or memory, a conflict. */
  failed: 1,
  /** The command line or its input is wrong: unknown command or option, missing or extra argument, bad value. */
  usage: 2,
  /** EX_IOERR: the daemon could not write its state (a full disk or quota). */
  diskFull: 74,
  /** `wait --timeout`: the task was still running. */
  timeout: 124,
} as const;

/** Errors about what was typed (the daemon answers them with a 400). */
const USAGE_CODES: ReadonlySet<ErrorCode> = new Set(['bad_request', 'invalid_cwd', 'command_not_found']);

export function exitCodeOf(err: unknown): number {
  if (!(err instanceof AppError)) return EXIT.failed;
  if (USAGE_CODES.has(err.code)) return EXIT.usage;
  return err.code === 'disk_full' ? EXIT.diskFull : EXIT.failed;
}

/** One line on stderr, and the exit code of the error. */
export function reportError(err: unknown): void {
  if (err instanceof AppError) process.stderr.write(`nightshift: ${err.message}\n`);
  else process.stderr.write(`nightshift: unexpected error: ${(err as Error).stack ?? String(err)}\n`);
  process.exitCode = exitCodeOf(err);
}
