/** Durations as people read them: 850 µs, 12.3 ms, 4.2 s, 3 min. */
export function formatDuration(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || Number.isNaN(ms)) return "—";
  // Nothing has no unit worth a prefix: 0 ms, not 0 µs.
  if (ms === 0) return "0 ms";
  if (ms < 1) return `${Math.round(ms * 1000)} µs`;
  if (ms < 100) return `${ms.toFixed(ms < 10 ? 2 : 1)} ms`;
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
  if (ms < 3_600_000) return `${(ms / 60_000).toFixed(1)} min`;
  return `${(ms / 3_600_000).toFixed(1)} h`;
}

const DURATION_UNITS = [
  { unit: "h", ms: 3_600_000 },
  { unit: "min", ms: 60_000 },
  { unit: "s", ms: 1000 },
  { unit: "ms", ms: 1 },
] as const;

/**
 * An axis's duration ticks in one unit, the one its largest tick reads best in, with the
 * decimals the ticks need: 0 s, 5 s, 10 s rather than 0 µs, 5.00 s, 10.0 s.
 */
export function formatDurationTicks(ticks: readonly number[]): string[] {
  const largest = Math.max(0, ...ticks.map((t) => Math.abs(t)));
  const { unit, ms } =
    largest > 0 && largest < 1
      ? { unit: "µs", ms: 0.001 }
      : (DURATION_UNITS.find((u) => largest >= u.ms) ?? { unit: "ms", ms: 1 });
  // The fewest decimals (up to 3) that write every tick exactly: 2.5 s, not 3 s; 5 s, not 5.0 s.
  const exact = (d: number) =>
    ticks.every((t) => {
      const scaled = (t / ms) * 10 ** d;
      return Math.abs(scaled - Math.round(scaled)) < 1e-6 * Math.max(1, Math.abs(scaled));
    });
  const decimals = [0, 1, 2].find(exact) ?? 3;
  return ticks.map((t) => `${(t / ms).toFixed(decimals)} ${unit}`);
}

const numberFormat = new Intl.NumberFormat(undefined, { maximumFractionDigits: 2 });
const compactFormat = new Intl.NumberFormat(undefined, {
  notation: "compact",
  maximumFractionDigits: 1,
});

export const formatNumber = (n: number | null | undefined): string =>
  n === null || n === undefined || Number.isNaN(n) ? "—" : numberFormat.format(n);

/**
 * A list's total as the API gave it: when it is a lower bound (`totalExact: false`, a filtered
 * count that stopped early) it reads "10,000+".
 */
export const formatTotal = (total: number, exact: boolean | undefined = true): string =>
  `${formatNumber(total)}${exact === false ? "+" : ""}`;

export const formatCompact = (n: number | null | undefined): string =>
  n === null || n === undefined || Number.isNaN(n) ? "—" : compactFormat.format(n);

export const formatPercent = (ratio: number | null | undefined, digits = 2): string =>
  ratio === null || ratio === undefined || Number.isNaN(ratio)
    ? "—"
    : `${(ratio * 100).toFixed(digits)} %`;

export const formatUsd = (usd: number | null | undefined): string =>
  usd === null || usd === undefined ? "—" : `$${usd < 1 ? usd.toFixed(4) : usd.toFixed(2)}`;

/** A timestamp in the viewer's locale, with seconds (and milliseconds when asked). */
export function formatTime(iso: string | null | undefined, withMs = false): string {
  if (!iso) return "—";
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return date.toLocaleString(undefined, {
    year: "numeric",
    month: "short",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
    // Milliseconds go with the seconds, before any AM/PM ("07:50:02.271 PM").
    ...(withMs ? { fractionalSecondDigits: 3 as const } : {}),
  });
}

/** "3 min ago", "in 2 h": for last-seen and next-run columns. */
export function formatRelative(iso: string | null | undefined, now = Date.now()): string {
  if (!iso) return "—";
  const diff = Date.parse(iso) - now;
  const abs = Math.abs(diff);
  const unit =
    abs < 60_000
      ? ([Math.round(diff / 1000), "second"] as const)
      : abs < 3_600_000
        ? ([Math.round(diff / 60_000), "minute"] as const)
        : abs < 86_400_000
          ? ([Math.round(diff / 3_600_000), "hour"] as const)
          : ([Math.round(diff / 86_400_000), "day"] as const);
  return new Intl.RelativeTimeFormat(undefined, { numeric: "auto" }).format(unit[0], unit[1]);
}

export const formatBytes = (bytes: number): string =>
  bytes < 1024
    ? `${bytes} B`
    : bytes < 1024 ** 2
      ? `${(bytes / 1024).toFixed(1)} KB`
      : `${(bytes / 1024 ** 2).toFixed(1)} MB`;

/** The text with its first letter in capitals ("critical" → "Critical"). */
export const capitalize = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1);
