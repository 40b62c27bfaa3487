import { useCallback, useMemo } from "react";
import {
  parseRange,
  RANGE_STORAGE_KEY,
  type RangeChoice,
  type RangeSpec,
  rangeParams,
  resolveRange,
  selectionRange,
  sessionRange,
  type TimeRange,
} from "./time-range-model";
import { useUrlParams } from "./url-state";

export * from "./time-range-model";

/** Rounds to the minute so a re-render within the same minute asks the same query. */
const floorToMinute = (ms: number) => Math.floor(ms / 60_000) * 60_000;

/** The session's stored range (null where storage is unavailable). */
export function storedRange(): string | null {
  try {
    return sessionStorage.getItem(RANGE_STORAGE_KEY);
  } catch {
    return null;
  }
}

/** Remembers the range for the rest of the session (this tab), so every screen opens on it. */
export function rememberRange(spec: RangeSpec): void {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(rangeParams(spec))) if (value) query.set(key, value);
  try {
    sessionStorage.setItem(RANGE_STORAGE_KEY, query.toString());
  } catch {
    // Storage refused (private mode, quota): the range still travels in the URL.
  }
}

/** The range the current screen shows: the URL's, else the session's, else the default. */
export function useRangeSpec(): RangeSpec {
  const [params] = useUrlParams();
  return sessionRange(params.toString(), storedRange());
}

/**
 * The view's time range: the URL's (`range=6h`, or absolute `from`/`to`), else the session's,
 * else DEFAULT_RANGE. Relative ranges end at the current minute, so they move as time passes.
 * Setting one writes it to the URL (a zoom with `push`, so Back returns) and to the session.
 * Before a `push` the current entry is given the range it shows, when its URL names none: Back
 * would otherwise read the session's range, which by then is the new one.
 */
export function useTimeRange(): [
  TimeRange,
  (next: RangeChoice, options?: { push?: boolean }) => void,
] {
  const [, set] = useUrlParams();
  const spec = useRangeSpec();
  const minute = floorToMinute(Date.now());
  const specKey = JSON.stringify(spec);
  // biome-ignore lint/correctness/useExhaustiveDependencies: specKey stands for spec's value.
  const range = useMemo(() => resolveRange(spec, minute), [specKey, minute]);
  const setRange = useCallback(
    (next: RangeChoice, options?: { push?: boolean }) => {
      const chosen: RangeSpec =
        typeof next === "string"
          ? { kind: "relative", key: next }
          : { kind: "absolute", from: next.from, to: next.to };
      if (options?.push && !parseRange(new URLSearchParams(window.location.search)))
        set(rangeParams(sessionRange(window.location.search, storedRange())));
      rememberRange(chosen);
      set(rangeParams(chosen), options);
    },
    [set],
  );
  return [range, setRange];
}

/**
 * What a time chart's drag (x bounds in Unix seconds) does: zoom to that absolute window,
 * as a new history entry so Back returns to the range before (setRange first writes that range
 * into the current entry when its URL had none).
 */
export function useChartZoom(
  setRange: (next: RangeChoice, options?: { push?: boolean }) => void,
): (a: number, b: number) => void {
  return useCallback(
    (a: number, b: number) => {
      const chosen = selectionRange(a, b);
      if (chosen?.kind === "absolute") setRange(chosen, { push: true });
    },
    [setRange],
  );
}
