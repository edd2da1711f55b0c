/**
 * Calls that outlive a daemon restart (an agent run does): a call that finds no daemon is tried
 * again for a while; one the daemon may have seen (the connection broke mid-request) only when
 * repeating it is harmless.
 */
import { AppError } from '../errors.js';
import { retry } from '../sys/retry.js';
import type { ApiClient } from './api-client.js';
import type { Caller } from './caller.js';

const RETRY_FOR_MS = 20_000;
const RETRY_STEP_MS = 250;

/** `idempotent`: safe to repeat after a broken connection (reads, waits, kills). */
export function daemonCall<T>(fn: () => Promise<T>, idempotent: boolean): Promise<T> {
  return retry(fn, {
    retryIf: (err) => err instanceof AppError && (err.code === 'daemon_unavailable' || (idempotent && err.code === 'connection_lost')),
    delayMs: RETRY_STEP_MS,
    forMs: RETRY_FOR_MS,
  });
}

/** A Caller over `client` whose calls retry as daemonCall does. */
export function retrying(client: ApiClient): Caller {
  return (fn, idempotent = false) => daemonCall(() => fn(client), idempotent);
}
