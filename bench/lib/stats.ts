/** Nearest-rank percentile (p in 0..100) of a non-empty sample. */
export function percentile(xs: readonly number[], p: number): number {
  if (xs.length === 0) throw new Error('percentile of an empty sample');
  const sorted = [...xs].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))] as number;
}

export function median(xs: readonly number[]): number {
  if (xs.length === 0) throw new Error('median of an empty sample');
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

export const sum = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0);

/** Rounds for printing: 3 significant digits, at most 3 decimals. */
export function fmt(x: number): string {
  if (!Number.isFinite(x)) return String(x);
  const abs = Math.abs(x);
  const decimals = abs >= 100 ? 0 : abs >= 10 ? 1 : abs >= 1 ? 2 : 3;
  return x.toFixed(decimals);
}

export const list = (xs: readonly number[]): string => xs.map(fmt).join(' ');
