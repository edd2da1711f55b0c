import { AppError } from '../errors.js';

/** How every command reports a failure: one line on stderr, exit 2 for bad input, else 1. */
export function reportError(err: unknown): void {
  if (err instanceof AppError) {
    process.stderr.write(`nightshift: ${err.message}\n`);
    process.exitCode = err.code === 'bad_request' ? 2 : 1;
  } else {
    process.stderr.write(`nightshift: unexpected error: ${(err as Error).stack ?? String(err)}\n`);
    process.exitCode = 1;
  }
}
