import type { Panel } from "../../../../../src/contracts/dashboards";
import type { QueryFrame } from "./frames";
import type { LinkFor } from "./links";

/** What every renderer is given: the panel, its results as frames, and where it may lead. */
export interface PanelViewProps {
  panel: Panel;
  frames: readonly QueryFrame[];
  /** The window the panel shows (ISO), which its time axis spans. */
  window: { from: string; to: string };
  /** A drag across a time axis: the new window (ISO). */
  onZoom?: ((from: string, to: string) => void) | undefined;
  linkFor: LinkFor | null;
}

/** Seconds since the epoch of an ISO time (NaN when it is not one). */
export const isoSeconds = (iso: string): number => Date.parse(iso) / 1000;

/** React keys for named items whose names may repeat (two queries, one label): a, a#2, b. */
export function uniqueKeys(names: readonly string[]): string[] {
  const seen = new Map<string, number>();
  return names.map((name) => {
    const count = (seen.get(name) ?? 0) + 1;
    seen.set(name, count);
    return count === 1 ? name : `${name}#${count}`;
  });
}

/**
 * A record's time in a list: the time of day (with milliseconds) when the window is within a
 * day, else the date too; the full time is the element's title.
 */
export function listTime(iso: string, window: { from: string; to: string }): string {
  const withinDay = Date.parse(window.to) - Date.parse(window.from) <= 86_400_000;
  return new Date(iso).toLocaleString(undefined, {
    ...(withinDay ? {} : { month: "short", day: "numeric" }),
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
    ...(withinDay ? { fractionalSecondDigits: 3 as const } : {}),
  });
}
