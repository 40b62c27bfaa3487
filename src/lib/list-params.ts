import { z } from "zod";
import { InvalidInputError } from "./domain-errors.js";

/** The named ranges docs/design.md §4 lists; any `<n>{m,h,d}` is accepted too. */
export const TIME_RANGES = ["15m", "1h", "6h", "24h", "7d", "30d", "90d"] as const;

const UNIT_MS = { m: 60_000, h: 3_600_000, d: 86_400_000 } as const;
/** Retention is at most 3650 days, so no window needs to reach further back. */
const MAX_RANGE_MS = 3650 * UNIT_MS.d;
const RANGE = /^([1-9][0-9]{0,6})([mhd])$/;

/** Milliseconds in a `<n>{m,h,d}` range, or undefined when the text is not one. */
export function rangeMs(text: string): number | undefined {
  const match = RANGE.exec(text);
  if (!match) return undefined;
  const ms = Number(match[1]) * UNIT_MS[match[2] as keyof typeof UNIT_MS];
  return ms <= MAX_RANGE_MS ? ms : undefined;
}

export const TimeRange = z
  .string()
  .refine((text) => rangeMs(text) !== undefined, {
    message: `must be one of ${TIME_RANGES.join(", ")} or <n>m, <n>h, <n>d (at most 3650 days)`,
  })
  .describe(`Window ending now: ${TIME_RANGES.join(", ")}, or any <n>m, <n>h, <n>d`);

const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

/** An instant as epoch milliseconds: ISO 8601 (UTC unless an offset is given) or epoch ms. */
export function parseInstant(text: string): number | undefined {
  if (/^\d{1,16}$/.test(text)) return Number(text);
  if (!ISO_INSTANT.test(text)) return undefined;
  const hasZone = /(Z|[+-]\d{2}:?\d{2})$/.test(text) && text.includes("T");
  const ms = Date.parse(hasZone || !text.includes("T") ? text : `${text}Z`);
  return Number.isFinite(ms) ? ms : undefined;
}

const Instant = (which: string) =>
  z
    .string()
    .refine((text) => parseInstant(text) !== undefined, {
      message: "must be an ISO 8601 time (2026-11-21T09:30:00Z) or epoch milliseconds",
    })
    .describe(`${which} of the window: ISO 8601 or epoch milliseconds; overrides time_range`);

/** An empty parameter (`time_range=`, what forms send for "none") is absent: its default applies. */
const blankAsAbsent = <T extends z.ZodType>(schema: T) =>
  z.preprocess((value) => (value === "" ? undefined : value), schema.optional());

/** `time_range`, `from`, `to` as every windowed endpoint accepts them; empty ones are absent. */
export const WindowQuery = z.object({
  time_range: blankAsAbsent(TimeRange),
  from: blankAsAbsent(Instant("Start (inclusive)")),
  to: blankAsAbsent(Instant("End (exclusive)")),
});
export type WindowQuery = z.infer<typeof WindowQuery>;

/** A half-open window [fromMs, toMs) in epoch milliseconds. */
export interface TimeWindow {
  fromMs: number;
  toMs: number;
}

/**
 * The window a request asks for. `from`/`to` override `time_range`; a missing `to` is now and a
 * missing `from` is `to` minus the range. Without any of them, `fallbackRange` applies, and
 * without that the endpoint is unbounded (undefined).
 */
export function resolveWindow(
  query: WindowQuery,
  nowMs: number,
  fallbackRange?: string,
): TimeWindow | undefined {
  const range = query.time_range ?? fallbackRange;
  if (query.from === undefined && query.to === undefined && range === undefined) return undefined;
  const toMs = query.to === undefined ? nowMs : (parseInstant(query.to) as number);
  const fromMs =
    query.from !== undefined
      ? (parseInstant(query.from) as number)
      : range !== undefined
        ? toMs - (rangeMs(range) as number)
        : 0;
  if (fromMs >= toMs) throw InvalidInputError.forField("from", "must be earlier than to");
  return { fromMs, toMs };
}

/** The window of a dashboard: as requested, else the last `fallbackRange` (24h by default). */
export function dashboardWindow(
  query: WindowQuery,
  nowMs: number,
  fallbackRange = "24h",
): TimeWindow {
  return resolveWindow(query, nowMs, fallbackRange) as TimeWindow;
}

/** `page` and `limit` (docs/design.md §4): page ≥ 1, limit 1–1000, default 50. */
export const PageQuery = z.object({
  page: z.coerce.number().int().min(1).max(1_000_000).default(1).describe("Page number, from 1"),
  limit: z.coerce.number().int().min(1).max(1000).default(50).describe("Items per page, 1–1000"),
});
export type PageQuery = z.infer<typeof PageQuery>;

export const SortOrder = z
  .enum(["asc", "desc"])
  .default("desc")
  .describe("Sort direction, default desc");

/** `sort_by` from one resource's whitelist, defaulting to its first entry. */
export const sortBy = <const T extends readonly [string, ...string[]]>(fields: T) =>
  z
    .enum(fields)
    .default(fields[0])
    .describe(`Sort field: ${fields.join(", ")} (default ${fields[0]})`);

/**
 * A list endpoint's query: its own filters, `sort_by` from its whitelist, `sort_order`, the
 * window and the page. Strict: an unknown parameter is a 400 naming it.
 */
export const listQuery = <const S extends readonly [string, ...string[]], F extends z.ZodRawShape>(
  sorts: S,
  filters: F,
) =>
  z
    .object({
      ...filters,
      sort_by: sortBy(sorts),
      sort_order: SortOrder,
      ...WindowQuery.shape,
      ...PageQuery.shape,
    })
    .strict();

/** An OpenTelemetry-style id: `chars` lowercase hex characters (32 for traces, 16 for spans). */
export const hexIdParam = (chars: number, what = `${chars} lowercase hex characters`) =>
  z.string().regex(new RegExp(`^[0-9a-f]{${chars}}$`), `must be ${what}`);

/**
 * `count` of the lists that count in the engine (logs, traces): how exact `total` has to be.
 * The default spares the engine a count it would scan the whole window for.
 */
export const CountParam = z
  .enum(["estimate", "exact"])
  .default("estimate")
  .describe(
    "`estimate` (default): `total` may be a lower bound (`totalExact: false`) or counted for an earlier page of the same query; `exact`: counted now, whatever it costs",
  );

/** ISO 8601 UTC with milliseconds, the one timestamp format of every response. */
export const isoMs = (ms: number): string => new Date(ms).toISOString();

/**
 * A bucket width for a window: the smallest "nice" step giving at most `maxBuckets` buckets,
 * so a chart has useful resolution on any range.
 */
const BUCKET_STEPS_MS = [
  60_000,
  5 * 60_000,
  15 * 60_000,
  30 * 60_000,
  3_600_000,
  3 * 3_600_000,
  6 * 3_600_000,
  12 * 3_600_000,
  86_400_000,
  7 * 86_400_000,
  30 * 86_400_000,
];
export function bucketMs(window: TimeWindow, maxBuckets = 120): number {
  const span = window.toMs - window.fromMs;
  return (
    BUCKET_STEPS_MS.find((step) => span / step <= maxBuckets) ?? (BUCKET_STEPS_MS.at(-1) as number)
  );
}

/** Every bucket start of the window, so series have no gaps where nothing happened. */
export function bucketStarts(window: TimeWindow, stepMs: number): number[] {
  const starts: number[] = [];
  for (let t = Math.floor(window.fromMs / stepMs) * stepMs; t < window.toMs; t += stepMs)
    starts.push(t);
  return starts;
}
