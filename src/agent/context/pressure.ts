/**
 * Pressure: where the context is (zone) and how fast it is filling (velocity). The level alone says
 * nothing about whether there are ten turns left or two; a rolling average of tokens added per turn
 * turns that into "turns until red".
 */
import type { Zone } from './types.js';

export interface ZoneThresholds {
  /** Utilisation (of the input budget) at which each zone starts. */
  yellow: number;
  orange: number;
  red: number;
}

export const DEFAULT_ZONES: ZoneThresholds = { yellow: 0.5, orange: 0.75, red: 0.9 };

export function zoneOf(utilisation: number, t: ZoneThresholds = DEFAULT_ZONES): Zone {
  if (utilisation >= t.red) return 'red';
  if (utilisation >= t.orange) return 'orange';
  if (utilisation >= t.yellow) return 'yellow';
  return 'green';
}

/** Tokens added per turn: velocity over the last few turns, burn rate over a longer stretch. */
export class PressureMonitor {
  private readonly added: number[] = [];

  constructor(
    private readonly velocityTurns = 5,
    private readonly burnTurns = 20,
  ) {}

  /** Tokens the history grew by since the previous request (before any tier freed anything). */
  record(tokensAdded: number): void {
    this.added.push(Math.max(0, tokensAdded));
    if (this.added.length > Math.max(this.velocityTurns, this.burnTurns)) this.added.shift();
  }

  private average(n: number): number {
    const recent = this.added.slice(-n);
    return recent.length ? recent.reduce((a, b) => a + b, 0) / recent.length : 0;
  }

  /** Rolling mean of the last `velocityTurns` turns. */
  get velocity(): number {
    return this.average(this.velocityTurns);
  }

  get burnRate(): number {
    return this.average(this.burnTurns);
  }

  /** Turns until `tokens` reaches `redAt` at the current velocity; 0 when there; null when not growing. */
  turnsUntil(tokens: number, redAt: number): number | null {
    if (tokens >= redAt) return 0;
    const v = this.velocity;
    if (v <= 0) return null;
    return Math.floor((redAt - tokens) / v);
  }
}
