/** Long work cut into slices (sys/time-slices.ts): it yields to the event loop once a slice is used up, not before. */
import { describe, expect, it } from 'vitest';
import { TimeSlices } from '../../src/sys/time-slices.js';

const busy = (ms: number) => {
  const until = performance.now() + ms;
  while (performance.now() < until);
};

describe('time slices', () => {
  it('lets waiting work run once a slice is used up', async () => {
    const slices = new TimeSlices(100);
    let ran = false;
    setImmediate(() => (ran = true));
    await slices.pass();
    expect(ran).toBe(false); // within the slice: no turn given
    busy(101);
    await slices.pass();
    expect(ran).toBe(true);
  });

  it('starts a new slice after each turn', async () => {
    const slices = new TimeSlices(200);
    busy(201);
    await slices.pass();
    let ran = false;
    setImmediate(() => (ran = true));
    await slices.pass();
    expect(ran).toBe(false);
  });
});
