import { z } from "zod";
import {
  LOG_LEVELS,
  type LogDetail,
  type LogSummary,
  type LogsDashboard,
} from "../contracts/logs.js";
import type { Page } from "../contracts/pagination.js";
import { NotFoundError } from "../lib/domain-errors.js";
import {
  bucketMs,
  bucketStarts,
  CountParam,
  dashboardWindow,
  isoMs,
  listQuery,
  resolveWindow,
  WindowQuery,
} from "../lib/list-params.js";
import { LogFilterQuery, logFilterConditions } from "./log-filter.js";
import type { ReadCtx } from "./read-deps.js";
import { countCap, num, Sql, selectPage, textOrNull, whereClause } from "./sql.js";

const LOG_SORTS = ["timestamp", "level", "service"] as const;
const SORT_COLUMNS: Record<(typeof LOG_SORTS)[number], string> = {
  timestamp: "timestamp",
  level: "severity_number",
  service: "service_name",
};

export const ListLogsQuery = listQuery(LOG_SORTS, { ...LogFilterQuery.shape, count: CountParam });
export type ListLogsQuery = z.infer<typeof ListLogsQuery>;

export const SUMMARY_COLUMNS = `id, toUnixTimestamp64Milli(timestamp) AS ts, level, severity_text,
  severity_number, service_name, message, source, trace_id, span_id, session_id, user_id`;

export type LogRow = Record<string, unknown>;

export function toSummary(row: LogRow): LogSummary {
  return {
    id: String(row.id),
    timestamp: isoMs(num(row.ts)),
    level: row.level as LogSummary["level"],
    severityText: String(row.severity_text),
    severityNumber: num(row.severity_number),
    service: String(row.service_name),
    message: String(row.message),
    source: row.source === "frontend" ? "frontend" : "backend",
    traceId: textOrNull(row.trace_id),
    spanId: textOrNull(row.span_id),
    sessionId: textOrNull(row.session_id),
    userId: textOrNull(row.user_id),
  };
}

/**
 * Log records, newest first unless sorted otherwise; one engine round trip for page and total.
 * Without filters the total is exact and free (the primary key counts the window); with them the
 * count stops at COUNT_CAP matches unless `count=exact`, so it never scans the whole window.
 */
export async function listLogs({
  ctx,
  projectId,
  ...query
}: { ctx: ReadCtx; projectId: string } & ListLogsQuery): Promise<Page<LogSummary>> {
  const deps = ctx.deps.read;
  const sql = new Sql(deps.telemetry, projectId);
  const window = resolveWindow(query, deps.clock.now().getTime());
  const filters = logFilterConditions(sql, query);
  const where = whereClause(sql, [...sql.within("timestamp", window), ...filters]);
  const capped = query.count === "estimate" && filters.length > 0;
  const table = sql.table("logs");
  const direction = query.sort_order === "asc" ? "ASC" : "DESC";
  const order =
    query.sort_by === "timestamp"
      ? `timestamp ${direction}, id ${direction}`
      : `${SORT_COLUMNS[query.sort_by]} ${direction}, timestamp DESC, id DESC`;
  return selectPage(
    sql,
    query,
    {
      columns: SUMMARY_COLUMNS,
      from: `${table} ${where}`,
      orderBy: order,
      total: { kind: "count", cap: capped ? countCap(query) : undefined },
    },
    toSummary,
  );
}

const LOG_ID = /^log_([0-9a-f]{12})[0-9a-f]{16}$/;

/** The millisecond a log id holds (ids are time-sortable), or undefined when it is not a log id. */
export function logIdMs(logId: string): number | undefined {
  const match = LOG_ID.exec(logId);
  return match ? Number.parseInt(match[1] as string, 16) : undefined;
}

/** One record with everything it carries. The id holds its millisecond, so the lookup reads one granule range. */
export async function getLog({
  ctx,
  projectId,
  logId,
}: {
  ctx: ReadCtx;
  projectId: string;
  logId: string;
}): Promise<LogDetail> {
  const deps = ctx.deps.read;
  const ms = logIdMs(logId);
  if (ms === undefined) throw new NotFoundError("Log", logId);
  const sql = new Sql(deps.telemetry, projectId);
  const [row] = await sql.query<LogRow>(
    `SELECT ${SUMMARY_COLUMNS}, toUnixTimestamp64Milli(observed_timestamp) AS observed_ms,
            trace_flags, attributes, resource_attributes, scope_name, scope_version
     FROM ${sql.table("logs")}
     ${whereClause(sql, [...sql.within("timestamp", { fromMs: ms, toMs: ms + 1 }), `id = ${sql.bind(logId)}`])}
     LIMIT 1`,
  );
  if (!row) throw new NotFoundError("Log", logId);
  const summary = toSummary(row);
  return {
    ...summary,
    observedTimestamp: isoMs(num(row.observed_ms)),
    traceFlags: num(row.trace_flags),
    attributes: row.attributes as Record<string, string>,
    resource: row.resource_attributes as Record<string, string>,
    scope: { name: String(row.scope_name), version: String(row.scope_version) },
    trace: summary.traceId
      ? { traceId: summary.traceId, spanId: summary.spanId, href: `/v1/traces/${summary.traceId}` }
      : null,
  };
}

export const LogsDashboardQuery = z
  .object({ ...WindowQuery.shape, service: LogFilterQuery.shape.service })
  .strict();
export type LogsDashboardQuery = z.infer<typeof LogsDashboardQuery>;

const TOP = 10;
/** Normalizes a message for grouping: uuids, hex ids and numbers become placeholders. */
const PATTERN_SQL = `replaceRegexpAll(replaceRegexpAll(replaceRegexpAll(left(message, 300),
  '[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}', '<id>'),
  '\\\\b[0-9a-fA-F]{16,}\\\\b', '<id>'), '\\\\d+(\\\\.\\\\d+)?', '<n>')`;

const zeroLevels = () =>
  Object.fromEntries(LOG_LEVELS.map((l) => [l, 0])) as Record<(typeof LOG_LEVELS)[number], number>;

/** Counts by level over time, the busiest services and the most frequent message patterns (default: 24h). */
export async function logsDashboard({
  ctx,
  projectId,
  ...query
}: { ctx: ReadCtx; projectId: string } & LogsDashboardQuery): Promise<LogsDashboard> {
  const deps = ctx.deps.read;
  const window = dashboardWindow(query, deps.clock.now().getTime());
  const step = bucketMs(window);
  const sql = new Sql(deps.telemetry, projectId);
  const where = whereClause(sql, [
    ...sql.within("timestamp", window),
    ...(query.service ? [`service_name = ${sql.bind(query.service)}`] : []),
  ]);
  const table = sql.table("logs");
  const [buckets, services, messages] = await Promise.all([
    sql.query<{ bucket: string; level: string; count: string }>(
      `SELECT ${sql.bucket("timestamp", step)} AS bucket, level, count() AS count
       FROM ${table} ${where} GROUP BY bucket, level`,
    ),
    sql.query<{ service_name: string; count: string; errors: string }>(
      `SELECT service_name, count() AS count, countIf(level IN ('error', 'fatal')) AS errors
       FROM ${table} ${where} GROUP BY service_name ORDER BY count DESC, service_name LIMIT ${TOP}`,
    ),
    sql.query<{ pattern: string; sample: string; level: string; count: string; last_ms: string }>(
      `SELECT ${PATTERN_SQL} AS pattern, any(message) AS sample, topK(1)(level)[1] AS level,
              count() AS count, toUnixTimestamp64Milli(max(timestamp)) AS last_ms
       FROM ${table} ${where} GROUP BY pattern ORDER BY count DESC, pattern LIMIT ${TOP}`,
    ),
  ]);
  const series = new Map(bucketStarts(window, step).map((t) => [t, { ...zeroLevels(), total: 0 }]));
  const byLevel = zeroLevels();
  for (const row of buckets) {
    const level = row.level as (typeof LOG_LEVELS)[number];
    if (!(level in byLevel)) continue;
    const count = num(row.count);
    byLevel[level] += count;
    const point = series.get(num(row.bucket));
    if (point) {
      point[level] += count;
      point.total += count;
    }
  }
  const total = LOG_LEVELS.reduce((sum, l) => sum + byLevel[l], 0);
  return {
    from: isoMs(window.fromMs),
    to: isoMs(window.toMs),
    bucketSeconds: step / 1000,
    total,
    byLevel,
    errorRate: total === 0 ? 0 : (byLevel.error + byLevel.fatal) / total,
    series: [...series].map(([time, counts]) => ({ time: isoMs(time), ...counts })),
    topServices: services.map((s) => ({
      service: s.service_name,
      count: num(s.count),
      errors: num(s.errors),
    })),
    topMessages: messages.map((m) => ({
      pattern: m.pattern,
      sample: m.sample,
      level: m.level as (typeof LOG_LEVELS)[number],
      count: num(m.count),
      lastSeen: isoMs(num(m.last_ms)),
    })),
  };
}
