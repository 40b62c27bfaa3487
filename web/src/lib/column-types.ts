/**
 * How the engine's column types and values read, for the TQL screen's table and chart and the
 * dashboards' panels alike. It imports nothing, so the tests under test/ can load it through
 * Node's resolution too.
 */

/** The type inside Nullable(…) and LowCardinality(…), which change nothing about the values. */
export function baseType(type: string): string {
  const match = /^(?:Nullable|LowCardinality)\((.*)\)$/.exec(type.trim());
  return match?.[1] ? baseType(match[1]) : type.trim();
}

export const isNumericType = (type: string): boolean =>
  /^(U?Int\d+|Float\d+|Decimal\d*|BFloat16)\b/.test(baseType(type));

export const isTimeType = (type: string): boolean =>
  /^(Date|Date32|DateTime|DateTime64)\b/.test(baseType(type));

const LABEL_TYPE = /^(String|FixedString|Enum8|Enum16|Enum|UUID|IPv4|IPv6|Bool)\b/;
/** Text-like columns: a series' or a bar's name. */
export const isLabelType = (type: string): boolean => LABEL_TYPE.test(baseType(type));

/** A value as text: NULL spelled out, structures as JSON, the rest as sent. */
export function formatCell(value: unknown): string {
  if (value === null || value === undefined) return "NULL";
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return JSON.stringify(value);
}

/** A number from a cell: numbers, and the decimal strings of 64-bit integers beyond 2^53. */
export function toNumber(value: unknown): number | null {
  if (typeof value === "number") return Number.isFinite(value) ? value : null;
  if (typeof value === "boolean") return value ? 1 : 0;
  if (typeof value === "string" && value.trim() !== "") {
    const n = Number(value);
    return Number.isFinite(n) ? n : null;
  }
  return null;
}

/** Milliseconds a zone is ahead of UTC at an instant. */
function zoneOffsetMs(zone: string, utcMs: number): number {
  if (zone === "UTC" || zone === "Etc/UTC") return 0;
  try {
    const parts = new Intl.DateTimeFormat("en-US", {
      timeZone: zone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    }).formatToParts(new Date(utcMs));
    const get = (name: string) => Number(parts.find((p) => p.type === name)?.value ?? 0);
    const local = Date.UTC(
      get("year"),
      get("month") - 1,
      get("day"),
      get("hour"),
      get("minute"),
      get("second"),
    );
    return local - Math.floor(utcMs / 1000) * 1000;
  } catch {
    return 0;
  }
}

/**
 * Milliseconds since the epoch of a Date/DateTime value as the engine writes it
 * (`2026-01-02 12:00:00.123456789`, in the type's zone, UTC when it names none), or null.
 */
export function parseTime(value: unknown, type: string): number | null {
  if (typeof value !== "string") return null;
  const match = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?)?/.exec(value);
  if (!match) return null;
  const [, y, mo, d, h = "0", mi = "0", s = "0", fraction = ""] = match;
  const naive = Date.UTC(
    Number(y),
    Number(mo) - 1,
    Number(d),
    Number(h),
    Number(mi),
    Number(s),
    Number(fraction.slice(0, 3).padEnd(3, "0")),
  );
  const zone = /'([^']+)'/.exec(baseType(type))?.[1] ?? "UTC";
  return naive - zoneOffsetMs(zone, naive - zoneOffsetMs(zone, naive));
}
