import { AppError, exitCodeFor } from '../errors.js';

/** How every command reports a failure: one line on stderr, and the exit code of `exitCodeFor` (2 bad input, 74 a full disk, else 1). */
export function reportError(err: unknown): void {
  if (err instanceof AppError) {
    process.stderr.write(`nightshift: ${err.message}\n`);
    process.exitCode = exitCodeFor(err.code);
  } else {
    process.stderr.write(`nightshift: unexpected error: ${(err as Error).stack ?? String(err)}\n`);
    process.exitCode = 1;
  }
}
