import { CI, definer } from "./define.js";
import type { FunctionDef } from "./function-def.js";

const fn = definer("date");

/** Units of the addX / subtractX / toIntervalX families, singular. */
const UNITS = [
  "Nanosecond",
  "Microsecond",
  "Millisecond",
  "Second",
  "Minute",
  "Hour",
  "Day",
  "Week",
  "Month",
  "Quarter",
  "Year",
] as const;

const lower = (unit: string) => unit.toLowerCase();

const addSubtract = (): FunctionDef[] =>
  UNITS.flatMap((unit) => [
    fn(`add${unit}s`, [2, 3], `Adds ${lower(unit)}s: (t, n[, time_zone])`),
    fn(`subtract${unit}s`, [2, 3], `Subtracts ${lower(unit)}s: (t, n[, time_zone])`),
  ]);

const intervals = (): FunctionDef[] =>
  UNITS.map((unit) => fn(`toInterval${unit}`, 1, `An interval of n ${lower(unit)}s`));

/** toStartOfX(t[, time_zone]) rounding down to the start of a period. */
const START_OF: readonly (readonly [suffix: string, period: string])[] = [
  ["Second", "second (DateTime64)"],
  ["Millisecond", "millisecond (DateTime64)"],
  ["Microsecond", "microsecond (DateTime64)"],
  ["Nanosecond", "nanosecond (DateTime64)"],
  ["Minute", "minute"],
  ["FiveMinutes", "five-minute interval"],
  ["TenMinutes", "ten-minute interval"],
  ["FifteenMinutes", "fifteen-minute interval"],
  ["Hour", "hour"],
  ["Day", "day"],
  ["Month", "month (a Date)"],
  ["Quarter", "quarter (a Date)"],
  ["Year", "year (a Date)"],
  ["ISOYear", "ISO year (a Date)"],
];

/** toX(t[, time_zone]) extracting one component. */
const COMPONENTS: readonly (readonly [name: string, what: string])[] = [
  ["toYear", "Year"],
  ["toQuarter", "Quarter, 1-4"],
  ["toMonth", "Month, 1-12"],
  ["toDayOfMonth", "Day of the month, 1-31"],
  ["toDayOfYear", "Day of the year, 1-366"],
  ["toHour", "Hour, 0-23"],
  ["toMinute", "Minute, 0-59"],
  ["toSecond", "Second, 0-59"],
  ["toMillisecond", "Millisecond part, 0-999"],
  ["toMicrosecond", "Microsecond part, 0-999999"],
  ["toISOWeek", "ISO 8601 week number"],
  ["toISOYear", "ISO 8601 week-numbering year"],
  ["toYYYYMM", "Year and month as a number, e.g. 202401"],
  ["toYYYYMMDD", "Date as a number, e.g. 20240131"],
  ["toYYYYMMDDhhmmss", "Date and time as a number, e.g. 20240131235959"],
  ["toDaysInMonth", "Number of days in the month"],
  ["toRelativeSecondNum", "Seconds since a fixed point in the past, for differences"],
  ["toRelativeMinuteNum", "Minutes since a fixed point in the past, for differences"],
  ["toRelativeHourNum", "Hours since a fixed point in the past, for differences"],
  ["toRelativeDayNum", "Days since a fixed point in the past, for differences"],
];

export const DATE_FUNCTIONS: readonly FunctionDef[] = [
  fn("now", [0, 1], "Current date and time, (time_zone) optional", CI),
  fn("now64", [0, 2], "Current time with sub-second precision: ([scale[, time_zone]])", CI),
  fn("today", 0, "Current date", CI),
  fn("yesterday", 0, "Yesterday's date"),
  fn("toDate", [1, 2], "Converts to Date; (value[, time_zone])"),
  fn("toDate32", [1, 2], "Converts to Date32 (wider range); (value[, time_zone])"),
  fn("toDateTime", [1, 2], "Converts to DateTime; (value[, time_zone])"),
  fn("toDateTime64", [2, 3], "Converts to DateTime64: (value, scale[, time_zone])"),
  ...START_OF.map(([suffix, period]) =>
    fn(`toStartOf${suffix}`, [1, 2], `Rounds down to the start of the ${period}`),
  ),
  fn("toStartOfWeek", [1, 3], "Rounds down to the start of the week: (t[, mode[, time_zone]])"),
  fn("toMonday", [1, 2], "Date of the Monday on or before"),
  fn(
    "toStartOfInterval",
    [2, 4],
    "Rounds down to an interval: (t, INTERVAL n unit[, origin][, time_zone])",
  ),
  fn("toLastDayOfWeek", [1, 3], "Date of the last day of the week: (t[, mode[, time_zone]])"),
  fn("toLastDayOfMonth", [1, 2], "Date of the last day of the month"),
  fn("dateTrunc", [2, 3], "Truncates to a unit: (unit, t[, time_zone]), unit such as 'hour'"),
  fn("toUnixTimestamp", [1, 2], "Seconds since 1970-01-01 UTC"),
  fn("toUnixTimestamp64Second", 1, "DateTime64 to whole seconds since the epoch"),
  fn("toUnixTimestamp64Milli", 1, "DateTime64 to milliseconds since the epoch"),
  fn("toUnixTimestamp64Micro", 1, "DateTime64 to microseconds since the epoch"),
  fn("toUnixTimestamp64Nano", 1, "DateTime64 to nanoseconds since the epoch"),
  fn("fromUnixTimestamp", [1, 3], "Seconds since the epoch to DateTime; ([format[, time_zone]])"),
  fn("fromUnixTimestamp64Second", [1, 2], "Seconds since the epoch to DateTime64(0)"),
  fn("fromUnixTimestamp64Milli", [1, 2], "Milliseconds since the epoch to DateTime64(3)"),
  fn("fromUnixTimestamp64Micro", [1, 2], "Microseconds since the epoch to DateTime64(6)"),
  fn("fromUnixTimestamp64Nano", [1, 2], "Nanoseconds since the epoch to DateTime64(9)"),
  fn("dateDiff", [3, 4], "Unit boundaries crossed between two times: ('unit', start, end)", CI),
  fn("age", [3, 4], "Whole units elapsed between two times: ('unit', start, end)", CI),
  fn(
    "dateAdd",
    [2, 3],
    "Adds to a date: (unit, n, t) with a bare unit keyword, or (t, INTERVAL)",
    CI,
  ),
  fn("dateSub", [2, 3], "Subtracts from a date: (unit, n, t), or (t, INTERVAL)", CI),
  ...addSubtract(),
  ...COMPONENTS.map(([name, what]) => fn(name, [1, 2], what)),
  fn("toDayOfWeek", [1, 3], "Day of the week, Monday = 1 by default: (t[, mode[, time_zone]])"),
  fn("toWeek", [1, 3], "Week number: (t[, mode[, time_zone]])"),
  fn("toYearWeek", [1, 3], "Year and week as a number, e.g. 202405: (t[, mode[, time_zone]])"),
  fn("monthName", 1, "Name of the month, e.g. 'January'", CI),
  fn("dateName", [2, 3], "A part of the date as text: ('part', t[, time_zone])", CI),
  fn("formatDateTime", [2, 3], "Formats with a MySQL-style format, e.g. '%Y-%m-%d %H:%i:%S'"),
  fn("formatDateTimeInJodaSyntax", [2, 3], "Formats with a Joda-style format, e.g. 'yyyy-MM-dd'"),
  fn("parseDateTime", [1, 3], "Parses text with a MySQL-style format: (s[, format[, time_zone]])"),
  fn("parseDateTimeOrNull", [1, 3], "parseDateTime, NULL when the text does not parse"),
  fn("parseDateTimeOrZero", [1, 3], "parseDateTime, zero date when the text does not parse"),
  fn("parseDateTimeInJodaSyntax", [1, 3], "Parses text with a Joda-style format"),
  fn("parseDateTimeInJodaSyntaxOrNull", [1, 3], "parseDateTimeInJodaSyntax, NULL on failure"),
  fn("parseDateTimeBestEffort", [1, 2], "Parses a date and time in most common text formats"),
  fn("parseDateTimeBestEffortOrNull", [1, 2], "parseDateTimeBestEffort, NULL on failure"),
  fn("parseDateTimeBestEffortOrZero", [1, 2], "parseDateTimeBestEffort, zero date on failure"),
  fn("parseDateTimeBestEffortUS", [1, 2], "parseDateTimeBestEffort preferring US MM/DD order"),
  fn("parseDateTimeBestEffortUSOrNull", [1, 2], "parseDateTimeBestEffortUS, NULL on failure"),
  fn("parseDateTimeBestEffortUSOrZero", [1, 2], "parseDateTimeBestEffortUS, zero on failure"),
  fn("parseDateTime64BestEffort", [1, 3], "Best-effort parse to DateTime64: (s[, scale[, tz]])"),
  fn("parseDateTime64BestEffortOrNull", [1, 3], "parseDateTime64BestEffort, NULL on failure"),
  fn("parseDateTime64BestEffortOrZero", [1, 3], "parseDateTime64BestEffort, zero on failure"),
  fn("toDateOrNull", 1, "Text to Date, NULL when it does not parse"),
  fn("toDateOrZero", 1, "Text to Date, 1970-01-01 when it does not parse"),
  fn("toDateTimeOrNull", [1, 2], "Text to DateTime, NULL when it does not parse"),
  fn("toDateTimeOrZero", [1, 2], "Text to DateTime, zero when it does not parse"),
  fn("toDateTime64OrNull", [1, 3], "Text to DateTime64, NULL when it does not parse"),
  fn("toDateTime64OrZero", [1, 3], "Text to DateTime64, zero when it does not parse"),
  ...intervals(),
  fn("timeSlot", [1, 2], "Rounds down to the half hour"),
  fn(
    "timeSlots",
    [2, 3],
    "Time slots covering [start, start + duration]: (start, seconds[, size])",
  ),
  fn("toTimezone", 2, "The same instant shown in another time zone"),
  fn("timezoneOf", 1, "Time zone name of a DateTime value's type"),
  fn("timezoneOffset", [1, 2], "Offset from UTC in seconds at that time"),
  fn("makeDate", [2, 3], "Date from (year, month, day) or (year, day_of_year)", CI),
  fn("makeDateTime", [6, 7], "DateTime from (year, month, day, hour, minute, second[, tz])", CI),
  fn(
    "makeDateTime64",
    [6, 9],
    "DateTime64 from components: (y, m, d, h, mi, s[, frac[, scale[, tz]]])",
    CI,
  ),
];
