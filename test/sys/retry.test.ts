import { describe, expect, it } from 'vitest';
import { retry } from '../../src/sys/retry.js';

class Busy extends Error {}
const busy = (err: unknown) => err instanceof Busy;

/** A function that fails `n` times (each failure after `slowMs`), then answers. */
function failing(n: number, slowMs = 0) {
  let calls = 0;
  const fn = async () => {
    calls++;
    if (slowMs) await new Promise((r) => setTimeout(r, slowMs));
    if (calls <= n) throw new Busy(`busy ${calls}`);
    return calls;
  };
  return { fn, calls: () => calls };
}

describe('retry', () => {
  it('tries again on a failure worth retrying, until it succeeds', async () => {
    const f = failing(3);
    expect(await retry(f.fn, { retryIf: busy, delayMs: 1 })).toBe(4);
  });

  it('throws any other failure at once, as it was', async () => {
    let calls = 0;
    const boom = new Error('boom');
    await expect(
      retry(
        async () => {
          calls++;
          throw boom;
        },
        { retryIf: busy, delayMs: 1 },
      ),
    ).rejects.toBe(boom);
    expect(calls).toBe(1);
  });

  it('gives up after `attempts` tries with the last failure', async () => {
    const f = failing(10);
    await expect(retry(f.fn, { retryIf: busy, delayMs: 0, attempts: 3 })).rejects.toThrow('busy 3');
    expect(f.calls()).toBe(3);
  });

  it('counts `forMs` from the first failure: a long first try still gets its retries', async () => {
    // The first try takes 150 ms, longer than forMs; the retries after it must still happen.
    let calls = 0;
    const fn = async () => {
      calls++;
      if (calls === 1) {
        await new Promise((r) => setTimeout(r, 150));
        throw new Busy('slow, then failed');
      }
      if (calls < 3) throw new Busy('again');
      return 'ok';
    };
    expect(await retry(fn, { retryIf: busy, delayMs: 5, forMs: 100 })).toBe('ok');
  });

  it('stops once failures have lasted `forMs`', async () => {
    const f = failing(1000);
    const started = Date.now();
    await expect(retry(f.fn, { retryIf: busy, delayMs: 10, forMs: 80 })).rejects.toBeInstanceOf(Busy);
    const took = Date.now() - started;
    expect(took).toBeGreaterThanOrEqual(80);
    expect(took).toBeLessThan(1000);
    expect(f.calls()).toBeGreaterThan(2);
  });
});
