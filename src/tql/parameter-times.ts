import type { ParamType } from "./ast.js";

/**
 * Dates and times as a parameter takes them: ISO-8601 (`2026-03-01T10:00:00Z`, an offset, or no
 * zone for UTC; a space may stand for `T`; up to nine fraction digits) or a date alone.
 */
const ISO =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?)?\s*(Z|z|[+-]\d{2}(?::?\d{2})?)?$/;

/** What each date-time type holds, in seconds since the epoch (ClickHouse's documented ranges). */
const RANGES = {
  Date: { min: 0, max: Date.UTC(2149, 5, 6) / 1000, shown: "1970-01-01 to 2149-06-06" },
  DateTime: {
    min: 0,
    max: Date.UTC(2106, 1, 7, 6, 28, 15) / 1000,
    shown: "1970-01-01 00:00:00 to 2106-02-07 06:28:15 UTC",
  },
  DateTime64: {
    min: Date.UTC(1900, 0, 1) / 1000,
    max: Date.UTC(2299, 11, 31, 23, 59, 59) / 1000,
    shown: "1900-01-01 to 2299-12-31 UTC",
  },
} as const;

/**
 * An ISO-8601 value as the text the engine parses for `type` in UTC (parameter-types.ts prints
 * the date-times with 'UTC'): `2026-03-01` for Date, `2026-03-01 10:00:00` for DateTime, and the
 * fraction cut or padded to the precision for DateTime64. A string saying what is wrong otherwise.
 */
export function timeText(value: string, type: ParamType): { text: string } | { problem: string } {
  const scalar = type.scalar as keyof typeof RANGES;
  const match = ISO.exec(value.trim());
  if (!match)
    return {
      problem:
        scalar === "Date"
          ? "needs a date such as 2026-03-01"
          : "needs an ISO-8601 date and time such as 2026-03-01T10:00:00Z",
    };
  const [, y = "", mo = "", d = "", h = "0", mi = "0", s = "0", fraction = "", zone] = match;
  const parts = [y, mo, d, h, mi, s].map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const [year, month, day, hour, minute, second] = parts;
  const utc = Date.UTC(year, month - 1, day, hour, minute, second);
  const check = new Date(utc);
  if (
    check.getUTCFullYear() !== year ||
    check.getUTCMonth() !== month - 1 ||
    check.getUTCDate() !== day ||
    hour > 23 ||
    minute > 59 ||
    second > 59
  )
    return { problem: `is not a valid ${scalar === "Date" ? "date" : "date and time"}` };
  const seconds = utc / 1000 - zoneMinutes(zone) * 60;
  const range = RANGES[scalar];
  if (seconds < range.min || seconds > range.max)
    return { problem: `is outside the range ${scalar} holds (${range.shown})` };
  const iso = new Date(seconds * 1000).toISOString();
  if (scalar === "Date") {
    // A date alone is that day; a time with an offset is the UTC day of that instant.
    return { text: match[4] === undefined ? `${y}-${mo}-${d}` : iso.slice(0, 10) };
  }
  const whole = `${iso.slice(0, 10)} ${iso.slice(11, 19)}`;
  const precision = type.precision ?? 0;
  if (scalar === "DateTime" || precision === 0) return { text: whole };
  return { text: `${whole}.${fraction.padEnd(9, "0").slice(0, precision)}` };
}

/** Minutes east of UTC of an ISO zone designator; none is UTC. */
function zoneMinutes(zone: string | undefined): number {
  if (zone === undefined || zone === "Z" || zone === "z") return 0;
  const sign = zone.startsWith("-") ? -1 : 1;
  const digits = zone.slice(1).replace(":", "");
  return sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2) || "0"));
}
