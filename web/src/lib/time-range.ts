import { useMemo } from "react";
import { useUrlParams } from "./url-state";

/** The relative ranges offered everywhere, as `range=` values in the URL. */
export const RANGE_PRESETS = [
  { key: "15m", label: "Last 15 minutes", ms: 15 * 60_000 },
  { key: "1h", label: "Last hour", ms: 60 * 60_000 },
  { key: "6h", label: "Last 6 hours", ms: 6 * 60 * 60_000 },
  { key: "24h", label: "Last 24 hours", ms: 24 * 60 * 60_000 },
  { key: "7d", label: "Last 7 days", ms: 7 * 24 * 60 * 60_000 },
  { key: "30d", label: "Last 30 days", ms: 30 * 24 * 60 * 60_000 },
] as const;

export interface TimeRange {
  /** ISO timestamps for the API's `from`/`to`. */
  from: string;
  to: string;
  /** What the URL holds: a preset key, or "custom" with `from`/`to` in the URL. */
  key: string;
  label: string;
  ms: number;
}

/** Rounds to the minute so a re-render within the same minute asks the same query. */
const floorToMinute = (ms: number) => Math.floor(ms / 60_000) * 60_000;

/**
 * The view's time range, from the URL: `range=1h` (default `fallback`), or absolute
 * `from`/`to`. Relative ranges end at the current minute, so they move as time passes.
 */
export function useTimeRange(
  fallback = "1h",
): [TimeRange, (next: string | { from: string; to: string }) => void] {
  const [params, set] = useUrlParams();
  const rangeKey = params.get("range") ?? fallback;
  const fromParam = params.get("from");
  const toParam = params.get("to");
  const minute = floorToMinute(Date.now());
  const range = useMemo<TimeRange>(() => {
    if (
      fromParam &&
      toParam &&
      !Number.isNaN(Date.parse(fromParam)) &&
      !Number.isNaN(Date.parse(toParam))
    ) {
      const from = new Date(fromParam);
      const to = new Date(toParam);
      return {
        from: from.toISOString(),
        to: to.toISOString(),
        key: "custom",
        label: `${from.toLocaleString()} – ${to.toLocaleString()}`,
        ms: to.getTime() - from.getTime(),
      };
    }
    const preset = RANGE_PRESETS.find((p) => p.key === rangeKey) ?? RANGE_PRESETS[1];
    const to = minute + 60_000;
    return {
      from: new Date(to - preset.ms).toISOString(),
      to: new Date(to).toISOString(),
      key: preset.key,
      label: preset.label,
      ms: preset.ms,
    };
  }, [rangeKey, fromParam, toParam, minute]);
  const setRange = (next: string | { from: string; to: string }) =>
    typeof next === "string"
      ? set({ range: next, from: undefined, to: undefined })
      : set({ range: undefined, from: next.from, to: next.to });
  return [range, setRange];
}
