/**
 * The last line of defence: a rejection nobody handled or an exception nobody caught. Every promise
 * in the daemon is meant to be awaited or handled, so reaching here is a bug either way; what
 * differs is whether serving on is safe.
 *
 * - An I/O failure (an errno error such as ENOSPC or EPIPE, or an AppError) leaves no state half
 *   changed: it is logged at error level and the daemon keeps serving.
 * - Anything else is a programming error (TypeError, a failed assertion): logged as fatal with its
 *   stack, on stderr too, and the daemon exits with 70 (EX_SOFTWARE). Tasks keep running; systemd
 *   or the next CLI call starts the daemon again, which re-adopts them.
 */
import { AppError } from '../errors.js';
import type { Logger } from '../log.js';

/** Exit code after a programming error reached the top (sysexits EX_SOFTWARE). */
export const EXIT_SOFTWARE = 70;

export function isOperational(err: unknown): boolean {
  if (err instanceof AppError) return true;
  const e = err as NodeJS.ErrnoException | null;
  return typeof e === 'object' && e !== null && typeof e.code === 'string' && typeof e.syscall === 'string';
}

/** Installs the handlers; returns what removes them. `exit` is process.exit unless a caller needs otherwise. */
export function installProcessErrorHandlers(log: Logger, exit: (code: number) => void = (code) => process.exit(code)): () => void {
  const report = (err: unknown, kind: 'unhandled rejection' | 'uncaught exception') => {
    if (isOperational(err)) {
      log.error({ err, kind }, `${kind} of an I/O failure (a bug: nothing waited for it); the daemon keeps serving`);
      return;
    }
    log.fatal({ err, kind }, `${kind}: a programming error; the daemon exits (tasks keep running and are re-adopted at the next start)`);
    process.stderr.write(`nightshift daemon: ${kind}: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    exit(EXIT_SOFTWARE);
  };
  const onRejection = (reason: unknown) => report(reason, 'unhandled rejection');
  const onException = (err: Error) => report(err, 'uncaught exception');
  process.on('unhandledRejection', onRejection);
  process.on('uncaughtException', onException);
  return () => {
    process.off('unhandledRejection', onRejection);
    process.off('uncaughtException', onException);
  };
}
