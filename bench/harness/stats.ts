// The figures every bench reports: nearest-rank percentiles, rounding, spreads.

export const round = (n: number, digits = 2) => Math.round(n * 10 ** digits) / 10 ** digits;

/** Thousands separated, as the benches' progress lines and tables print counts. */
export const fmt = (n: number) => n.toLocaleString("en");

/** The nearest-rank percentile of values already sorted ascending; NaN when there are none. */
export function percentile(sorted: ArrayLike<number>, p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const index = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return sorted[Math.max(0, index)] ?? Number.NaN;
}

/** The nearest-rank percentile of values in any order. */
export const percentileOf = (values: readonly number[], p: number) =>
  percentile(Float64Array.from(values).sort(), p);

/** p50 / p99 / max, rounded to `digits`. */
export function spread(values: readonly number[], digits = 2) {
  const sorted = Float64Array.from(values).sort();
  return {
    p50: round(percentile(sorted, 50), digits),
    p99: round(percentile(sorted, 99), digits),
    max: round(sorted.at(-1) ?? Number.NaN, digits),
  };
}

export const median = (values: readonly number[]) => percentileOf(values, 50);
