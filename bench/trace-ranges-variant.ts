/**
 * The alternative of ADR 0028 that was measured and not adopted, kept here so the bench can
 * measure it again: `trace_ranges`, each trace's earliest and latest item time in `trace_data`
 * (filled by a view on `trace_data`, partitioned by week), read by a scalar subquery of the
 * lookup so the engine prunes `trace_data`'s parts by time. The whole change (reader, upgrade
 * backfill, tests) is on the branch `experiment/trace-ranges`.
 */
import { Sql, whereClause } from "../src/read/sql.js";
import type { TelemetryExecutor } from "../src/telemetry/executor.js";
import { QUIET_DAYS_MERGED } from "../src/telemetry/tables.js";

/** `trace_ranges` as the branch creates it on one server (its DDL there). */
const tableSql = (db: string) => `CREATE TABLE IF NOT EXISTS ${db}.trace_ranges (
  project_id LowCardinality(String),
  trace_id String,
  earliest SimpleAggregateFunction(min, DateTime64(9, 'UTC')),
  latest SimpleAggregateFunction(max, DateTime64(9, 'UTC'))
) ENGINE = AggregatingMergeTree
PARTITION BY toMonday(earliest)
ORDER BY (project_id, trace_id)
TTL toDateTime(latest) + toIntervalDay(30)
SETTINGS index_granularity = 1024, ttl_only_drop_parts = 1, ${QUIET_DAYS_MERGED}`;

/** Its view: every insert into `trace_data`, grouped by trace. */
export const rangesViewSql = (db: string) =>
  `CREATE MATERIALIZED VIEW IF NOT EXISTS ${db}.trace_ranges_mv TO ${db}.trace_ranges AS
SELECT project_id, trace_id, min(timestamp) AS earliest, max(timestamp) AS latest
FROM ${db}.trace_data GROUP BY project_id, trace_id`;

/** Creates `trace_ranges` and its view, before any span is written. */
export async function createTraceRanges(telemetry: TelemetryExecutor) {
  await telemetry.command(tableSql(telemetry.database));
  await telemetry.command(rangesViewSql(telemetry.database));
}

const ITEMS = "SELECT trace_id, item, span_id, data FROM";

/**
 * readTraceData's statement for one trace with the trace's range read first by a scalar
 * subquery (run before planning, so `timestamp` prunes parts like a constant); a trace without
 * a range is read from every part.
 */
export async function lookupThroughRanges(
  telemetry: TelemetryExecutor,
  projectId: string,
  traceId: string,
) {
  const sql = new Sql(telemetry, projectId);
  const id = sql.bind(traceId);
  const rows = await sql.queryRows(
    `WITH (SELECT (count(), min(earliest), max(latest)) FROM ${sql.table("trace_ranges")}
       ${whereClause(sql, [`trace_id = ${id}`])}) AS item_range
     ${ITEMS} ${sql.table("trace_data")}
     ${whereClause(sql, [`trace_id = ${id}`, "(NOT (item_range.1 > 0) OR timestamp >= item_range.2 AND timestamp <= item_range.3)"])}
     LIMIT 100002`,
  );
  if (!rows.some((row) => row[1] === "span")) throw new Error(`trace ${traceId} was not found`);
}

/**
 * The floor of any index: the same statement with the trace's range given as constants (as an
 * index costing nothing to consult would give it), read from `trace_ranges` beforehand, untimed.
 */
export async function knownRanges(telemetry: TelemetryExecutor, projectId: string) {
  const rows = await telemetry.query<{ trace_id: string; earliest: string; latest: string }>(
    `SELECT trace_id, toString(min(earliest)) AS earliest, toString(max(latest)) AS latest
     FROM ${telemetry.database}.trace_ranges WHERE project_id = {p:String} GROUP BY trace_id`,
    { params: { p: projectId } },
  );
  const ranges = new Map(rows.map((r) => [r.trace_id, r]));
  return async (telemetry: TelemetryExecutor, projectId: string, traceId: string) => {
    const range = ranges.get(traceId);
    if (!range) throw new Error(`trace ${traceId} has no range`);
    const sql = new Sql(telemetry, projectId);
    const time = (text: string) => `toDateTime64(${sql.bind(text)}, 9, 'UTC')`;
    const rows = await sql.queryRows(
      `${ITEMS} ${sql.table("trace_data")}
       ${whereClause(sql, [`trace_id = ${sql.bind(traceId)}`, `timestamp >= ${time(range.earliest)}`, `timestamp <= ${time(range.latest)}`])}
       LIMIT 100002`,
    );
    if (!rows.some((row) => row[1] === "span")) throw new Error(`trace ${traceId} was not found`);
  };
}
