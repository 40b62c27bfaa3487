/**
 * What a time chart draws, decided from its data alone (pure, so it is tested without a
 * browser): which buckets are complete, and which point the legend shows before any hover.
 */

/**
 * The index of the first bucket still filling at `nowSeconds` (its end is after now), or
 * `x.length` when every bucket is complete. The bucket width is `bucketSeconds`, else the gap
 * between the last two points; with neither, nothing counts as filling.
 */
export function firstFillingBucket(
  x: readonly number[],
  nowSeconds: number,
  bucketSeconds?: number,
): number {
  const n = x.length;
  const last = x[n - 1];
  const before = x[n - 2];
  const step = bucketSeconds ?? (last !== undefined && before !== undefined ? last - before : 0);
  if (!(step > 0)) return n;
  let end = n;
  while (end > 0 && (x[end - 1] ?? 0) + step > nowSeconds) end -= 1;
  return end;
}

/** The latest index before `end` where some series has a value, or null when none has. */
export function latestIndex(
  series: readonly (readonly (number | null)[])[],
  end: number,
): number | null {
  for (let i = end - 1; i >= 0; i -= 1)
    if (series.some((values) => values[i] !== null && values[i] !== undefined)) return i;
  return null;
}

/** "minute", "hour", "day", or the width in words: what the filling bucket is called. */
export function bucketName(seconds: number): string {
  if (seconds === 60) return "minute";
  if (seconds === 3600) return "hour";
  if (seconds === 86_400) return "day";
  if (seconds % 3600 === 0) return `${seconds / 3600} h`;
  if (seconds % 60 === 0) return `${seconds / 60} min`;
  return `${seconds} s`;
}
