import { REFRESH_INTERVALS, type RefreshInterval } from "../../../../src/contracts/dashboards.js";

/*
 * Auto refresh as plain values: the choices, their length, and when the next refresh is due.
 * The view keeps the choice in the URL (`refresh=30s`); the dashboard's own is the default.
 */

const UNIT_MS = { s: 1000, m: 60_000, h: 3_600_000 } as const;

export const REFRESH_LABELS: Record<RefreshInterval, string> = {
  off: "Off",
  "10s": "10 seconds",
  "30s": "30 seconds",
  "1m": "1 minute",
  "5m": "5 minutes",
  "15m": "15 minutes",
  "1h": "1 hour",
};

export const isRefreshInterval = (value: string | null | undefined): value is RefreshInterval =>
  (REFRESH_INTERVALS as readonly string[]).includes(value ?? "");

/** The URL's choice when it is one, else the dashboard's. */
export function refreshChoice(
  fromUrl: string | null | undefined,
  dashboardDefault: RefreshInterval,
): RefreshInterval {
  return isRefreshInterval(fromUrl) ? fromUrl : dashboardDefault;
}

/** An interval's length in ms; null for "off". */
export function refreshMs(interval: RefreshInterval): number | null {
  const match = /^(\d+)([smh])$/.exec(interval);
  if (!match) return null;
  return Number(match[1]) * UNIT_MS[match[2] as keyof typeof UNIT_MS];
}

/**
 * How long until the next refresh, given the last one at `lastAt`: 0 when it is already due
 * (a tab shown again after the interval passed refreshes at once); null when off.
 */
export function refreshDelay(
  interval: RefreshInterval,
  lastAt: number,
  now: number,
): number | null {
  const ms = refreshMs(interval);
  if (ms === null) return null;
  return Math.max(0, lastAt + ms - now);
}
