/**
 * L2-regularised logistic regression, small enough to read: features are standardised, then
 * Newton's method (a few dozen steps over some sixty weights) finds the weights. The daemon only scores;
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

/** Solves A·x = b (A row-major n×n, overwritten) by Gaussian elimination with partial pivoting. */
function solve(a: Float64Array, b: Float64Array, n: number): Float64Array {
  for (let c = 0; c < n; c++) {
    let p = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(a[r * n + c] as number) > Math.abs(a[p * n + c] as number)) p = r;
    if (p !== c) {
      for (let k = 0; k < n; k++) {
        const t = a[c * n + k] as number;
        a[c * n + k] = a[p * n + k] as number;
        a[p * n + k] = t;
      }
      const t = b[c] as number;
      b[c] = b[p] as number;
      b[p] = t;
    }
    const pivot = (a[c * n + c] as number) || 1e-12;
    for (let r = 0; r < n; r++) {
      if (r === c) continue;
      const f = (a[r * n + c] as number) / pivot;
      if (f === 0) continue;
      for (let k = c; k < n; k++) a[r * n + k] = (a[r * n + k] as number) - f * (a[c * n + k] as number);
      b[r] = (b[r] as number) - f * (b[c] as number);
    }
  }
  return b.map((v, i) => v / ((a[i * n + i] as number) || 1e-12));
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
  for (const row of x) for (let j = 0; j < d; j++) mean[j] = (mean[j] as number) + (row[j] ?? 0) / n;
  for (const row of x) for (let j = 0; j < d; j++) scale[j] = (scale[j] as number) + ((row[j] ?? 0) - (mean[j] as number)) ** 2 / n;
  for (let j = 0; j < d; j++) scale[j] = Math.sqrt(scale[j] as number) || 1;
  // Standardised rows with a constant 1 for the bias, in one flat array.
  const m = d + 1;
  const z = new Float64Array(n * m);
  x.forEach((row, i) => {
    for (let j = 0; j < d; j++) z[i * m + j] = ((row[j] ?? 0) - (mean[j] as number)) / (scale[j] as number);
    z[i * m + d] = 1;
  });
  const w = new Float64Array(m);
  for (let step = 0; step < (opts.maxSteps ?? 50); step++) {
    const grad = new Float64Array(m);
    const hess = new Float64Array(m * m);
    for (let i = 0; i < n; i++) {
      const o = i * m;
      const weight = opts.sampleWeights?.[i] ?? 1;
      let s = 0;
      for (let j = 0; j < m; j++) s += (w[j] as number) * (z[o + j] as number);
      const p = 1 / (1 + Math.exp(-s));
      const r = (p - (y[i] ?? 0)) * weight;
      const q = p * (1 - p) * weight;
      for (let a = 0; a < m; a++) {
        const za = z[o + a] as number;
        if (za === 0) continue;
        grad[a] = (grad[a] as number) + r * za;
        const qa = q * za;
        const row = a * m;
        for (let b = 0; b <= a; b++) hess[row + b] = (hess[row + b] as number) + qa * (z[o + b] as number);
      }
    }
    for (let a = 0; a < m; a++) for (let b = 0; b < a; b++) hess[b * m + a] = hess[a * m + b] as number;
    for (let a = 0; a < d; a++) {
      grad[a] = (grad[a] as number) + opts.lambda * (w[a] as number);
      hess[a * m + a] = (hess[a * m + a] as number) + opts.lambda;
    }
    hess[d * m + d] = (hess[d * m + d] as number) + 1e-9;
    const delta = solve(hess, grad, m);
    let largest = 0;
    for (let j = 0; j < m; j++) {
      w[j] = (w[j] as number) - (delta[j] as number);
      largest = Math.max(largest, Math.abs(delta[j] as number));
    }
    if (largest < 1e-6) break;
  }
  return { bias: w[d] as number, weights: Array.from(w.subarray(0, d)), mean, scale };
}
