/**
 * The gauge the manager reads each request on: utilisation, zone, velocity, the last request's
 * figures and which component limits are crossed. It keeps that state across requests and answers
 * with the reading and the events it is worth (zone change, iteration, component limits, in that
 * order); the manager reports them.
 */
import { limitCrossings, type ComponentStatus, type ComponentUsage } from './components.js';
import type { ComponentName, ContextEventInput, Zone } from './types.js';
import type { WindowSpec } from './model-window.js';
import { PressureMonitor, zoneOf, type ZoneThresholds } from './pressure.js';

export interface Reading {
  tokens: number;
  exact: boolean;
  /** tokens / input budget: what zones and tiers use. */
  utilisation: number;
  pctOfWindow: number;
  zone: Zone;
}

export class Gauge {
  readonly pressure: PressureMonitor;
  private previous: Reading | undefined;
  private readonly componentStatus = new Map<ComponentName, ComponentStatus>();

  constructor(
    private readonly zones: ZoneThresholds,
    velocityTurns: number,
    private readonly window: WindowSpec,
    private readonly budget: number,
  ) {
    this.pressure = new PressureMonitor(velocityTurns);
  }

  /** The last request sent, if any. */
  get last(): Reading | undefined {
    return this.previous;
  }

  /** The growth since the last request, measured before any tier frees anything: what velocity is made of. */
  grew(tokens: number): void {
    if (this.previous) this.pressure.record(tokens - this.previous.tokens);
  }

  /** A request goes out at `tokens`: its reading, and the events to report. */
  read(
    tokens: number,
    exact: boolean,
    iteration: number,
    components: Record<ComponentName, ComponentUsage>,
  ): { reading: Reading; events: ContextEventInput[] } {
    const utilisation = tokens / this.budget;
    const zone = zoneOf(utilisation, this.zones);
    const from = this.previous?.zone ?? 'green';
    const pctOfWindow = tokens / this.window.contextWindow;
    const events: ContextEventInput[] = zone !== from ? [{ type: 'zone_change', from, to: zone, tokens }] : [];
    const velocity = this.pressure.velocity;
    const turnsUntilRed = this.pressure.turnsUntil(tokens, this.zones.red * this.budget);
    events.push({ type: 'iteration', iteration, tokens, exact, pctOfWindow, utilisation, zone, velocity, turnsUntilRed });
    events.push(...limitCrossings(components, this.componentStatus));
    this.previous = { tokens, exact, utilisation, pctOfWindow, zone };
    return { reading: { ...this.previous }, events };
  }
}
