import type { z } from "zod";
import {
  MAX_SERVICES,
  type ServiceList,
  type ServicePoint,
  type ServiceSummary,
} from "../contracts/services.js";
import {
  bucketMs,
  bucketStarts,
  dashboardWindow,
  isoMs,
  type TimeWindow,
  WindowQuery,
} from "../lib/list-params.js";
import type { ReadCtx } from "./read-deps.js";
import { FAILED_SPAN, ratio, roundMs } from "./span-figures.js";
import { num, Sql, whereClause } from "./sql.js";

export const ServicesQuery = WindowQuery.strict();
export type ServicesQuery = z.infer<typeof ServicesQuery>;

/** The window when none is asked for. */
export const SERVICES_DEFAULT_RANGE = "1h";

/** A request of a service: a server or consumer span, or a root span of any kind. */
export const ENTRY_SPAN = "(span_kind IN ('server', 'consumer') OR parent_span_id = '')";

/** count, errors and p50/p95/p99 of the spans of a group (duration_ms). */
export const SPAN_FIGURES = `count() AS requests, countIf(${FAILED_SPAN}) AS errors,
  quantiles(0.5, 0.95, 0.99)(duration_ms) AS q`;

/** The columns SPAN_FIGURES selects, as the engine sends them. */
export interface FigureRow {
  requests: string | number;
  errors: string | number;
  q: (number | null)[];
}

/** Requests, rate, errors and latency of a group of spans over a window `seconds` long. */
export function figuresOf(row: FigureRow | undefined, seconds: number) {
  const requests = num(row?.requests);
  const errors = num(row?.errors);
  const some = requests > 0;
  return {
    requests,
    rate: seconds > 0 ? requests / seconds : 0,
    errors,
    errorRate: ratio(errors, requests),
    p50Ms: some ? roundMs(row?.q[0]) : null,
    p95Ms: some ? roundMs(row?.q[1]) : null,
    p99Ms: some ? roundMs(row?.q[2]) : null,
  };
}

/** The window a services read answers, and its sparkline buckets. */
export function servicesWindow(query: ServicesQuery, nowMs: number) {
  const window = dashboardWindow(query, nowMs, SERVICES_DEFAULT_RANGE);
  return { window, step: bucketMs(window), seconds: (window.toMs - window.fromMs) / 1000 };
}

/**
 * Every service's figures over the window (or one service's), busiest first, each with its
 * series: one scan of the window's entry spans, grouped per service and per service and bucket
 * at once (GROUPING SETS).
 */
export async function serviceSummaries(
  sql: Sql,
  window: TimeWindow,
  step: number,
  service?: string,
): Promise<ServiceSummary[]> {
  const where = whereClause(sql, [
    ...sql.within("timestamp", window),
    ENTRY_SPAN,
    ...(service === undefined ? [] : [`service_name = ${sql.bind(service)}`]),
  ]);
  const rows = await sql.query<FigureRow & { service_name: string; bucket: string; total: number }>(
    `SELECT service_name, ${sql.bucket("timestamp", step)} AS bucket, ${SPAN_FIGURES},
       grouping(bucket) AS total
     FROM ${sql.table("traces")} ${where}
     GROUP BY GROUPING SETS ((service_name), (service_name, bucket))`,
  );
  const seconds = (window.toMs - window.fromMs) / 1000;
  const starts = bucketStarts(window, step);
  const byService = new Map<string, { total?: FigureRow; buckets: Map<number, FigureRow> }>();
  for (const row of rows) {
    let entry = byService.get(row.service_name);
    if (!entry) {
      entry = { buckets: new Map() };
      byService.set(row.service_name, entry);
    }
    if (num(row.total) === 1) entry.total = row;
    else entry.buckets.set(num(row.bucket), row);
  }
  return [...byService]
    .map(([name, { total, buckets }]) => ({
      service: name,
      ...figuresOf(total, seconds),
      series: starts.map((time): ServicePoint => {
        const bucket = buckets.get(time);
        const requests = num(bucket?.requests);
        return {
          time: isoMs(time),
          requests,
          errors: num(bucket?.errors),
          p95Ms: requests > 0 ? roundMs(bucket?.q[1]) : null,
        };
      }),
    }))
    .sort((a, b) => b.requests - a.requests || a.service.localeCompare(b.service))
    .slice(0, MAX_SERVICES);
}

/** GET /v1/services: each service's requests, errors and latency over the window, with sparklines. */
export async function listServices({
  ctx,
  projectId,
  ...query
}: { ctx: ReadCtx; projectId: string } & ServicesQuery): Promise<ServiceList> {
  const deps = ctx.deps.read;
  const { window, step } = servicesWindow(query, deps.clock.now().getTime());
  const sql = new Sql(deps.telemetry, projectId);
  return {
    from: isoMs(window.fromMs),
    to: isoMs(window.toMs),
    bucketSeconds: step / 1000,
    services: await serviceSummaries(sql, window, step),
  };
}
