import { createHash } from "node:crypto";

/** `value` rounded to `digits` decimals; sums of floats drop their last-bit noise this way. */
export function round(value: number, digits: number): number {
  if (!Number.isFinite(value)) return 0;
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}

/** A part of a whole as a rate 0–1 with four decimals; 0 when the whole is 0. */
export const ratio = (part: number, whole: number): number =>
  whole > 0 ? round(part / whole, 4) : 0;

/** Milliseconds with microsecond precision. */
export const ms = (value: number): number => round(value, 3);

/** US dollars to the nano-dollar, enough for one cheap embedding call. */
export const usd = (value: number): number => round(value, 9);

/** Code-unit order, the same on every machine (localeCompare depends on the locale). */
export const compareText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** The median of the values (mean of the middle two for an even count); 0 for none. */
export function median(values: readonly number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const upper = sorted[mid] ?? 0;
  return sorted.length % 2 === 1 ? upper : ((sorted[mid - 1] ?? 0) + upper) / 2;
}

/** A run of consecutive buckets that are all spikes. */
export interface SpikeEpisode {
  /** Start of the first bucket (epoch ms). */
  startMs: number;
  /** End of the last bucket (epoch ms, exclusive). */
  endMs: number;
  /** Events over the episode's buckets. */
  total: number;
  /** The largest bucket and when it started. */
  peak: number;
  peakMs: number;
  buckets: number;
}

/**
 * Spikes in a zero-filled series: buckets with at least `minCount` events and at least `factor`
 * times the series' median, merged into episodes when consecutive. In time order.
 */
export function spikeEpisodes(
  series: readonly { timeMs: number; count: number }[],
  stepMs: number,
  thresholds: { minCount: number; factor: number },
): { median: number; threshold: number; episodes: SpikeEpisode[] } {
  const middle = median(series.map((point) => point.count));
  const threshold = Math.max(thresholds.minCount, thresholds.factor * middle);
  const episodes: SpikeEpisode[] = [];
  let current: SpikeEpisode | undefined;
  for (const { timeMs, count } of [...series].sort((a, b) => a.timeMs - b.timeMs)) {
    if (count < threshold) {
      current = undefined;
      continue;
    }
    if (current && current.endMs === timeMs) {
      current.endMs = timeMs + stepMs;
      current.total += count;
      current.buckets += 1;
      if (count > current.peak) {
        current.peak = count;
        current.peakMs = timeMs;
      }
    } else {
      current = {
        startMs: timeMs,
        endMs: timeMs + stepMs,
        total: count,
        peak: count,
        peakMs: timeMs,
        buckets: 1,
      };
      episodes.push(current);
    }
  }
  return { median: middle, threshold, episodes };
}

const MAX_KEY = 80;

/**
 * A recommendation subject from free text: the text itself when short, else its first 60
 * characters and a hash of the whole, so ids stay readable, bounded and distinct.
 */
export function stableKey(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  if (flat.length <= MAX_KEY) return flat;
  const hash = createHash("sha256").update(flat).digest("hex").slice(0, 10);
  return `${flat.slice(0, 60)}…#${hash}`;
}

/**
 * The upper bound of the histogram bucket holding the q-quantile, or `max` when it falls into
 * the open last bucket (or beyond the bounds); 0 for an empty histogram.
 */
export function histogramUpperBound(
  counts: readonly number[],
  bounds: readonly number[],
  max: number,
  q: number,
): number {
  const total = counts.reduce((sum, c) => sum + c, 0);
  if (total <= 0) return 0;
  const rank = q * total;
  let seen = 0;
  for (let i = 0; i < counts.length; i++) {
    seen += counts[i] ?? 0;
    if (seen >= rank) return Math.min(bounds[i] ?? max, max);
  }
  return max;
}
