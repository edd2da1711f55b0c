import { describe, expect, it } from 'vitest';
import { PressureMonitor, zoneOf } from '../../../src/agent/context/pressure.js';

describe('zones and velocity', () => {
  it('classifies green < 50 % ≤ yellow < 75 % ≤ orange < 90 % ≤ red', () => {
    expect([0, 0.49, 0.5, 0.74, 0.75, 0.89, 0.9, 1.2].map((u) => zoneOf(u))).toEqual(['green', 'green', 'yellow', 'yellow', 'orange', 'orange', 'red', 'red']);
  });

  it('velocity is the rolling mean of the last 5 turns; burn rate a longer one', () => {
    const p = new PressureMonitor(5, 20);
    expect(p.velocity).toBe(0);
    for (const n of [100, 100, 100, 100, 100, 600, 600, 600, 600, 600]) p.record(n);
    expect(p.velocity).toBe(600);
    expect(p.burnRate).toBe(350);
    p.record(-5000); // a compaction is not negative growth
    expect(p.velocity).toBe(480);
  });

  it('turns until red from velocity', () => {
    const p = new PressureMonitor();
    expect(p.turnsUntil(1000, 9000)).toBeNull();
    p.record(1000);
    expect(p.turnsUntil(1000, 9000)).toBe(8);
    expect(p.turnsUntil(9500, 9000)).toBe(0);
  });
});
