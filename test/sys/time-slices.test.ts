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

describe('time slices of jobs side by side', () => {
  /** A job of `steps` steps of `stepMs` each, passing its slices between steps. */
  async function job(slices: TimeSlices, steps: number, stepMs: number): Promise<void> {
    for (let i = 0; i < steps; i++) {
      busy(stepMs);
      await slices.pass();
    }
  }

  it('share one slice: a waiting timer is held up by one slice, not one of each job', async () => {
    const SLICE = 40;
    const gaps: number[] = [];
    let last = performance.now();
    let running = true;
    const tick = () => {
      const now = performance.now();
      gaps.push(now - last);
      last = now;
      if (running) setTimeout(tick, 0);
    };
    setTimeout(tick, 0);
    await Promise.all([job(new TimeSlices(SLICE), 40, 5), job(new TimeSlices(SLICE), 40, 5)]);
    running = false;
    // A slice of each job in turn would hold it up for two slices (80 ms and more).
    expect(gaps.length).toBeGreaterThan(5);
    expect(Math.max(...gaps)).toBeLessThan(SLICE * 1.6);
  });
});
