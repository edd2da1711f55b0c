/** The hook route's own time budget: an answer not ready in time is nothing, and its later end (or failure) goes nowhere. */
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { within } from '../../../src/daemon/routes/hook.js';

describe('the hook route answers within its budget', () => {
  it('gives up on work that is not done in time, at the deadline', async () => {
    const t0 = Date.now();
    expect(
      await within(
        sleep(2_000).then(() => 'late'),
        30,
      ),
    ).toBeUndefined();
    expect(Date.now() - t0).toBeLessThan(1_000);
  });

  it('keeps work done in time', async () => {
    expect(
      await within(
        sleep(5).then(() => 'ready'),
        1_000,
      ),
    ).toBe('ready');
  });

  it('passes on a failure within the budget; one after it is dropped, not unhandled', async () => {
    await expect(within(Promise.reject(new Error('refused')), 1_000)).rejects.toThrow('refused');
    const unhandled: unknown[] = [];
    const note = (e: unknown) => unhandled.push(e);
    process.on('unhandledRejection', note);
    try {
      expect(
        await within(
          sleep(30).then(() => Promise.reject(new Error('too late'))),
          5,
        ),
      ).toBeUndefined();
      await sleep(60);
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', note);
    }
  });
});
