import { z } from "zod";
import { type Filters, FiltersParam } from "../contracts/explore-filters.js";
import { SPAN_KINDS, type SpanKind } from "../contracts/traces.js";
import { filterConditions } from "./filter-conditions.js";
import { roundMs } from "./span-figures.js";
import type { Sql } from "./sql.js";

/** A duration bound in whole milliseconds, at most a day. */
export const DurationParam = (what: string) =>
  z.coerce.number().int().min(0).max(86_400_000).optional().describe(what);

/** What picks spans in every traces read: service, kind and the explorers' filters. */
export const SpanFilterFields = {
  service: z.string().min(1).max(256).optional(),
  span_kind: z
    .enum(SPAN_KINDS)
    .optional()
    .describe(`Span kind: ${SPAN_KINDS.join(", ")}`),
  filters: FiltersParam.optional(),
};

/** Span-level status and duration (the stats and group-by; the list applies them per trace). */
export const SpanOutcomeFields = {
  status: z
    .enum(["ok", "error"])
    .optional()
    .describe("`error`: spans with status error; `ok`: the others"),
  min_duration: DurationParam("Only spans lasting at least this many milliseconds"),
  max_duration: DurationParam("Only spans lasting at most this many milliseconds"),
};

export interface SpanFilter {
  service?: string | undefined;
  span_kind?: SpanKind | undefined;
  filters?: Filters | undefined;
}

export interface SpanOutcome {
  status?: "ok" | "error" | undefined;
  min_duration?: number | undefined;
  max_duration?: number | undefined;
}

/**
 * The conditions one span must meet together: its service, its kind and every filter. A bad
 * filter is a 400 naming it (`filters.<i>.field`).
 */
export function spanConditions(sql: Sql, query: SpanFilter): string[] {
  return [
    ...(query.service ? [`service_name = ${sql.bind(query.service)}`] : []),
    ...(query.span_kind ? [`span_kind = ${sql.bind(query.span_kind)}`] : []),
    ...filterConditions(sql, "traces", query.filters),
  ];
}

/** A span's status and duration bounds as conditions (`duration` names the nanoseconds). */
export function outcomeConditions(
  sql: Sql,
  query: SpanOutcome,
  duration = "duration_ns",
  errors = "status = 'error'",
): string[] {
  return [
    ...(query.min_duration !== undefined
      ? [`${duration} >= ${sql.bind(query.min_duration * 1_000_000)}`]
      : []),
    ...(query.max_duration !== undefined
      ? [`${duration} <= ${sql.bind(query.max_duration * 1_000_000)}`]
      : []),
    ...(query.status === "error" ? [errors] : []),
    ...(query.status === "ok" ? [`NOT (${errors})`] : []),
  ];
}

/** A percentile as the engine sends it (null or NaN without spans), in rounded ms. */
export const percentileMs = (value: unknown): number | null =>
  roundMs(value === null || value === undefined ? null : Number(value));

/** `quantiles(0.5, 0.95, 0.99)` of span durations in ms, as `q` (1-based: q[1] is p50). */
export const DURATION_QUANTILES = "quantiles(0.5, 0.95, 0.99)(duration_ms) AS q";
