import type { PanelUnit } from "../../../../../src/contracts/dashboards.js";

/**
 * A panel's values in its unit (pure, tested in test/web-dashboard-units.test.ts): durations
 * and bytes scale to the unit that reads best, counts and rates take K/M/B, currencies their
 * symbol. `decimals` fixes the digits after the point; without it they follow the size.
 */

interface Scale {
  /** What a value is divided by. */
  factor: number;
  prefix: string;
  suffix: string;
}

const NANOS = [
  { factor: 1, suffix: " ns" },
  { factor: 1e3, suffix: " µs" },
  { factor: 1e6, suffix: " ms" },
  { factor: 1e9, suffix: " s" },
  { factor: 60e9, suffix: " min" },
  { factor: 3600e9, suffix: " h" },
  { factor: 86_400e9, suffix: " d" },
] as const;

/** Nanoseconds in one of each duration unit. */
const NANOS_PER: Partial<Record<PanelUnit, number>> = { ns: 1, ms: 1e6, s: 1e9 };

const BINARY = ["B", "KiB", "MiB", "GiB", "TiB", "PiB"] as const;
const SHORT = [
  { factor: 1, suffix: "" },
  { factor: 1e3, suffix: "K" },
  { factor: 1e6, suffix: "M" },
  { factor: 1e9, suffix: "B" },
  { factor: 1e12, suffix: "T" },
] as const;

/** The largest step whose factor is at most `magnitude` (the first step for 0 and below). */
function stepFor<T extends { factor: number }>(steps: readonly T[], magnitude: number): T {
  let chosen = steps[0] as T;
  for (const step of steps) if (magnitude >= step.factor) chosen = step;
  return chosen;
}

/** How a value of `magnitude` (absolute, in the panel's unit) is written: divisor and affixes. */
function scaleFor(unit: PanelUnit, magnitude: number): Scale {
  const perNano = NANOS_PER[unit];
  if (perNano !== undefined) {
    // Zero reads in the panel's own unit (0 ms), not in nanoseconds.
    const own = NANOS.find((s) => s.factor === perNano) ?? NANOS[0];
    const step = magnitude === 0 ? own : stepFor(NANOS, magnitude * perNano);
    return { factor: step.factor / perNano, prefix: "", suffix: step.suffix };
  }
  switch (unit) {
    case "bytes": {
      const power =
        magnitude < 1 ? 0 : Math.min(BINARY.length - 1, Math.floor(Math.log2(magnitude) / 10));
      return { factor: 1024 ** power, prefix: "", suffix: ` ${BINARY[power]}` };
    }
    case "percent":
      return { factor: 1, prefix: "", suffix: "%" };
    case "percentunit":
      return { factor: 0.01, prefix: "", suffix: "%" };
    case "usd":
      return { factor: 1, prefix: "$", suffix: "" };
    case "eur":
      return { factor: 1, prefix: "€", suffix: "" };
    case "count": {
      const step = stepFor(SHORT, magnitude);
      return { factor: step.factor, prefix: "", suffix: step.suffix };
    }
    case "reqps": {
      const step = stepFor(SHORT, magnitude);
      return { factor: step.factor, prefix: "", suffix: `${step.suffix} req/s` };
    }
    default:
      return { factor: 1, prefix: "", suffix: "" };
  }
}

/** Digits after the point a scaled number reads well with: 123, 12.3, 1.23, 0.0123. */
function autoDecimals(n: number): number {
  const magnitude = Math.abs(n);
  if (magnitude === 0 || magnitude >= 100) return 0;
  if (magnitude >= 10) return 1;
  if (magnitude >= 1) return 2;
  return Math.min(6, 2 - Math.floor(Math.log10(magnitude)));
}

const formats = new Map<string, Intl.NumberFormat>();
function numberFormat(min: number, max: number): Intl.NumberFormat {
  const key = `${min}:${max}`;
  let format = formats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(undefined, {
      minimumFractionDigits: min,
      maximumFractionDigits: max,
    });
    formats.set(key, format);
  }
  return format;
}

const isCurrency = (unit: PanelUnit) => unit === "usd" || unit === "eur";

function write(value: number, scale: Scale, unit: PanelUnit, decimals: number | undefined) {
  const n = value / scale.factor;
  let min: number;
  let max: number;
  if (decimals !== undefined) {
    min = decimals;
    max = decimals;
  } else if (isCurrency(unit)) {
    // Cents always; a fraction of a cent (an LLM call's cost) keeps its significant digits.
    max = Math.max(2, autoDecimals(n));
    min = 2;
  } else {
    max = autoDecimals(n);
    min = 0;
  }
  const text = numberFormat(min, max).format(Math.abs(n));
  // A value that rounds to zero has no sign (not "-0").
  const negative = n < 0 && /[1-9]/.test(text);
  return `${negative ? "-" : ""}${scale.prefix}${text}${scale.suffix}`;
}

/** One value in the panel's unit: `formatUnit(1530, "ms")` → "1.53 s". Null and NaN read "—". */
export function formatUnit(
  value: number | null | undefined,
  unit: PanelUnit = "none",
  decimals?: number,
): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return "—";
  return write(value, scaleFor(unit, Math.abs(value)), unit, decimals);
}

/**
 * An axis's ticks in one scale, the one its largest tick reads best in, with the fewest
 * decimals (up to 3) that write every tick exactly: 0 s, 0.5 s, 1 s, 1.5 s.
 */
export function formatUnitTicks(
  ticks: readonly number[],
  unit: PanelUnit = "none",
  decimals?: number,
): string[] {
  const largest = Math.max(0, ...ticks.map((t) => Math.abs(t)));
  const scale = scaleFor(unit, largest);
  const exact = (d: number) =>
    ticks.every((t) => {
      const scaled = (t / scale.factor) * 10 ** d;
      return Math.abs(scaled - Math.round(scaled)) < 1e-6 * Math.max(1, Math.abs(scaled));
    });
  const digits = decimals ?? [0, 1, 2].find(exact) ?? 3;
  return ticks.map((t) => write(t, scale, "none", digits));
}
