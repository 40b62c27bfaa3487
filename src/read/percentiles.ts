/**
 * A merged duration histogram: `counts[i]` observations in (bounds[i-1], bounds[i]] (the first
 * bucket starts at 0), one more count than bounds for the open bucket above the last bound, and
 * the smallest and largest observation.
 */
export interface DurationHistogram {
  bounds: readonly number[];
  counts: readonly number[];
  min: number;
  max: number;
}

/**
 * The q-quantile (0–1) of a histogram, or null when it holds no observation. As Prometheus'
 * histogram_quantile: rank = q × total, the bucket whose cumulative count first reaches the rank,
 * and linear interpolation between its edges; the open last bucket ends at the observed max, and
 * both edges are clamped to [min, max] so no estimate lies outside what was observed.
 */
export function histogramPercentile(histogram: DurationHistogram, q: number): number | null {
  const { bounds, counts, min, max } = histogram;
  const total = counts.reduce((sum, c) => sum + c, 0);
  if (total <= 0) return null;
  const rank = Math.min(Math.max(q, 0), 1) * total;
  if (rank <= 0) return min;
  let below = 0;
  for (let i = 0; i < counts.length; i++) {
    const count = counts[i] ?? 0;
    if (count > 0 && below + count >= rank) {
      const lower = clamp(i === 0 ? 0 : (bounds[i - 1] ?? max), min, max);
      const upper = clamp(bounds[i] ?? max, min, max);
      return clamp(lower + ((upper - lower) * (rank - below)) / count, min, max);
    }
    below += count;
  }
  // Unreachable when counts sum to total; kept so a rounding edge still answers the max.
  return max;
}

const clamp = (value: number, low: number, high: number): number =>
  Math.min(Math.max(value, low), high);
