/** One measured figure, the target it is held to, and whether it met it (null: reported, no target). */
export interface Figure {
  name: string;
  value: number;
  unit: string;
  target: string;
  ok: boolean | null;
}

export interface BenchOptions {
  /** Shorter runs for a smoke check; recorded figures come from full runs. */
  quick: boolean;
}

export interface Bench {
  name: string;
  title: string;
  /** Upper bound on the wall time of a full run; the runner stops and cleans up past it. */
  budgetSeconds: number;
  run(o: BenchOptions, say: (line: string) => void): Promise<Figure[]>;
}

export const atMost = (name: string, value: number, unit: string, limit: number): Figure => ({
  name,
  value,
  unit,
  target: `≤ ${limit}${unit ? ` ${unit}` : ''}`,
  ok: value <= limit,
});

export const atLeast = (name: string, value: number, unit: string, limit: number): Figure => ({
  name,
  value,
  unit,
  target: `≥ ${limit}${unit ? ` ${unit}` : ''}`,
  ok: value >= limit,
});

export const info = (name: string, value: number, unit: string, note = ''): Figure => ({ name, value, unit, target: note, ok: null });
