import { RELATIVE_RANGE, type TimeRangeSetting } from "../contracts/dashboards.js";
import { InvalidInputError } from "../lib/domain-errors.js";

// The window a panel query is bound to: `{from}`, `{to}` and `{bucket_seconds}` (docs/dashboards.md).

/** The steps a bucket may take, in seconds; past a day, whole days. */
export const BUCKET_STEPS: readonly number[] = [
  1, 5, 10, 15, 30, 60, 300, 600, 900, 1800, 3600, 10_800, 21_600, 43_200, 86_400,
];

const UNIT_SECONDS = { m: 60, h: 3600, d: 86_400 } as const;
/** Retention is at most 3650 days, so no window needs to reach further back. */
const MAX_RANGE_SECONDS = 3650 * UNIT_SECONDS.d;

export interface PanelWindow {
  from: Date;
  to: Date;
  bucketSeconds: number;
}

/** The smallest step that cuts `seconds` into at most `maxDataPoints` buckets. */
export function bucketFor(seconds: number, maxDataPoints: number): number {
  const least = seconds / maxDataPoints;
  const step = BUCKET_STEPS.find((s) => s >= least);
  return step ?? Math.ceil(least / UNIT_SECONDS.d) * UNIT_SECONDS.d;
}

/**
 * A relative range ends at the end of the bucket `now` falls in, so every viewer within one
 * bucket asks for the same window (and shares one cached result) while the newest bucket stays
 * in view; it starts the range before that. An absolute range is used as given.
 */
export function resolveWindow(
  range: TimeRangeSetting,
  maxDataPoints: number,
  now: Date,
): PanelWindow {
  if (typeof range !== "string") {
    const from = new Date(range.from);
    const to = new Date(range.to);
    const seconds = (to.getTime() - from.getTime()) / 1000;
    return { from, to, bucketSeconds: bucketFor(seconds, maxDataPoints) };
  }
  const match = RELATIVE_RANGE.exec(range);
  const seconds = match
    ? Number(match[1]) * UNIT_SECONDS[match[2] as keyof typeof UNIT_SECONDS]
    : Number.NaN;
  if (!(seconds <= MAX_RANGE_SECONDS))
    throw InvalidInputError.forField("timeRange", "must reach back at most 3650 days");
  const bucketSeconds = bucketFor(seconds, maxDataPoints);
  const bucketMs = bucketSeconds * 1000;
  const to = Math.ceil(now.getTime() / bucketMs) * bucketMs;
  return { from: new Date(to - seconds * 1000), to: new Date(to), bucketSeconds };
}
