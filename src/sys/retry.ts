import { setTimeout as sleep } from 'node:timers/promises';

export interface RetryOptions {
  /** Which failures are worth another try; any other is thrown at once. */
  retryIf: (err: unknown) => boolean;
  /** The pause before each new try. */
  delayMs: number;
  /** Gives up once failures have gone on this long, counted from the first failure (not from the first try). */
  forMs?: number;
  /** Gives up after this many tries in all. */
  attempts?: number;
}

/**
 * Runs `fn` until it succeeds, or a failure is not worth retrying, or the time or tries run out;
 * then the last failure is thrown as it was. Without `forMs` and `attempts` it tries until it
 * succeeds or meets a failure it must not retry.
 */
export async function retry<T>(fn: () => Promise<T>, o: RetryOptions): Promise<T> {
  let firstFailure: number | undefined;
  for (let tries = 1; ; tries++) {
    try {
      return await fn();
    } catch (err) {
      firstFailure ??= Date.now();
      const outOfTime = o.forMs !== undefined && Date.now() - firstFailure >= o.forMs;
      const outOfTries = o.attempts !== undefined && tries >= o.attempts;
      if (!o.retryIf(err) || outOfTime || outOfTries) throw err;
    }
    if (o.delayMs > 0) await sleep(o.delayMs);
  }
}
