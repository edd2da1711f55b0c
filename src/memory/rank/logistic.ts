/**
 * L2-regularised logistic regression, small enough to read: features are standardised, then
 * Newton's method (a few dozen steps over ~40 weights) finds the weights. The daemon only scores;
 * scripts/fit-ranker.ts fits.
 */

export interface LogisticModel {
  bias: number;
  weights: number[];
  /** Per feature: subtracted, then divided by, before the weights apply. */
  mean: number[];
  scale: number[];
}

export function probability(model: LogisticModel, x: readonly number[]): number {
  let s = model.bias;
  for (let j = 0; j < x.length; j++) s += (model.weights[j] ?? 0) * (((x[j] ?? 0) - (model.mean[j] ?? 0)) / (model.scale[j] ?? 1));
  return 1 / (1 + Math.exp(-s));
}

/** Solves A·x = b by Gaussian elimination with partial pivoting (A is small and well conditioned). */
function solve(a: number[][], b: number[]): number[] {
  const n = b.length;
  const m = a.map((row, i) => [...row, b[i] ?? 0]);
  for (let c = 0; c < n; c++) {
    let p = c;
    for (let r = c + 1; r < n; r++) if (Math.abs((m[r] as number[])[c] ?? 0) > Math.abs((m[p] as number[])[c] ?? 0)) p = r;
    [m[c], m[p]] = [m[p] as number[], m[c] as number[]];
    const pivotRow = m[c] as number[];
    const pivot = pivotRow[c] || 1e-12;
    for (let r = 0; r < n; r++) {
      if (r === c) continue;
      const row = m[r] as number[];
      const f = (row[c] ?? 0) / pivot;
      if (f !== 0) for (let k = c; k <= n; k++) row[k] = (row[k] ?? 0) - f * (pivotRow[k] ?? 0);
    }
  }
  return m.map((row, i) => (row[n] ?? 0) / (row[i] || 1e-12));
}

export interface FitOptions {
  /** L2 penalty on the standardised weights (not on the bias). */
  lambda: number;
  /** Per-example weight (default 1). */
  sampleWeights?: readonly number[];
  maxSteps?: number;
}

export function fitLogistic(x: readonly (readonly number[])[], y: readonly number[], opts: FitOptions): LogisticModel {
  const n = x.length;
  const d = x[0]?.length ?? 0;
  const mean = new Array<number>(d).fill(0);
  const scale = new Array<number>(d).fill(0);
  for (const row of x) for (let j = 0; j < d; j++) mean[j] = (mean[j] ?? 0) + (row[j] ?? 0) / n;
  for (const row of x) for (let j = 0; j < d; j++) scale[j] = (scale[j] ?? 0) + ((row[j] ?? 0) - (mean[j] ?? 0)) ** 2 / n;
  for (let j = 0; j < d; j++) scale[j] = Math.sqrt(scale[j] ?? 0) || 1;
  const z = x.map((row) => [...row.map((v, j) => (v - (mean[j] ?? 0)) / (scale[j] ?? 1)), 1]);
  let w = new Array<number>(d + 1).fill(0);
  for (let step = 0; step < (opts.maxSteps ?? 50); step++) {
    const grad = new Array<number>(d + 1).fill(0);
    const hess = Array.from({ length: d + 1 }, () => new Array<number>(d + 1).fill(0));
    for (let i = 0; i < n; i++) {
      const zi = z[i] as number[];
      const weight = opts.sampleWeights?.[i] ?? 1;
      let s = 0;
      for (let j = 0; j <= d; j++) s += (w[j] ?? 0) * (zi[j] ?? 0);
      const p = 1 / (1 + Math.exp(-s));
      const r = (p - (y[i] ?? 0)) * weight;
      const q = p * (1 - p) * weight;
      for (let a = 0; a <= d; a++) {
        grad[a] = (grad[a] ?? 0) + r * (zi[a] ?? 0);
        const row = hess[a] as number[];
        for (let b = 0; b <= a; b++) row[b] = (row[b] ?? 0) + q * (zi[a] ?? 0) * (zi[b] ?? 0);
      }
    }
    for (let a = 0; a <= d; a++) for (let b = 0; b < a; b++) (hess[b] as number[])[a] = (hess[a] as number[])[b] ?? 0;
    for (let a = 0; a < d; a++) {
      grad[a] = (grad[a] ?? 0) + opts.lambda * (w[a] ?? 0);
      (hess[a] as number[])[a] = ((hess[a] as number[])[a] ?? 0) + opts.lambda;
    }
    (hess[d] as number[])[d] = ((hess[d] as number[])[d] ?? 0) + 1e-9;
    const delta = solve(hess, grad);
    w = w.map((v, j) => v - (delta[j] ?? 0));
    if (Math.max(...delta.map(Math.abs)) < 1e-7) break;
  }
  return { bias: w[d] ?? 0, weights: w.slice(0, d), mean, scale };
}
