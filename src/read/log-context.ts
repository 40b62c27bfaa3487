import { z } from "zod";
import type { LogContext } from "../contracts/logs.js";
import { NotFoundError } from "../lib/domain-errors.js";
import { type LogRow, logIdMs, SUMMARY_COLUMNS, toSummary } from "./logs.js";
import type { ReadCtx } from "./read-deps.js";
import { Sql, whereClause } from "./sql.js";

const Side = (which: string) =>
  z.coerce
    .number()
    .int()
    .min(0)
    .max(200)
    .default(20)
    .describe(`How many records ${which} the one asked about, 0–200 (default 20)`);

export const LogContextQuery = z.object({ before: Side("before"), after: Side("after") }).strict();
export type LogContextQuery = z.infer<typeof LogContextQuery>;

/** How far either side of the record the context looks: a day, so a lookup never reads all retention. */
const REACH_NS = 86_400n * 1_000_000_000n;

/** The resource attributes naming an instance, most precise first. */
const INSTANCE_KEYS = ["service.instance.id", "host.name"] as const;

/**
 * The records of the same service and instance (`service.instance.id`, else `host.name`, else
 * the service alone) just before and after one record, oldest first, with the record itself
 * marked: what its emitter was doing around it. Each side reads newest-to-oldest (or the
 * reverse) from the record's time and stops at the count, within a day of the record.
 */
export async function logContext({
  ctx,
  projectId,
  logId,
  before,
  after,
}: { ctx: ReadCtx; projectId: string; logId: string } & LogContextQuery): Promise<LogContext> {
  const deps = ctx.deps.read;
  const ms = logIdMs(logId);
  if (ms === undefined) throw new NotFoundError("Log", logId);
  const lookup = new Sql(deps.telemetry, projectId);
  const table = lookup.table("logs");
  const [record] = await lookup.query<LogRow>(
    `SELECT ${SUMMARY_COLUMNS}, toString(toUnixTimestamp64Nano(timestamp)) AS ns,
            ${INSTANCE_KEYS.map((key, i) => `resource_attributes['${key}'] AS instance_${i}`).join(", ")}
     FROM ${table}
     ${whereClause(lookup, [...lookup.within("timestamp", { fromMs: ms, toMs: ms + 1 }), `id = ${lookup.bind(logId)}`])}
     LIMIT 1`,
  );
  if (!record) throw new NotFoundError("Log", logId);
  const service = String(record.service_name);
  const index = INSTANCE_KEYS.findIndex((_, i) => String(record[`instance_${i}`] ?? "") !== "");
  const instance =
    index < 0
      ? null
      : {
          field: `resource.${INSTANCE_KEYS[index]}`,
          value: String(record[`instance_${index}`]),
        };

  const sql = new Sql(deps.telemetry, projectId);
  const ns = BigInt(String(record.ns));
  const at = (value: bigint) =>
    `fromUnixTimestamp64Nano(${sql.bind(value.toString(), "Int64")}, 'UTC')`;
  const time = at(ns);
  const id = sql.bind(logId);
  const same = [
    `service_name = ${sql.bind(service)}`,
    ...(instance && index >= 0
      ? [
          `resource_attributes[${sql.bind(INSTANCE_KEYS[index] as string)}] = ${sql.bind(instance.value)}`,
        ]
      : []),
  ];
  const side = (older: boolean, count: number) => {
    const where = whereClause(sql, [
      ...same,
      ...(older
        ? [
            `timestamp >= ${at(ns - REACH_NS)}`,
            `timestamp <= ${time}`,
            `(timestamp < ${time} OR id < ${id})`,
          ]
        : [
            `timestamp <= ${at(ns + REACH_NS)}`,
            `timestamp >= ${time}`,
            `(timestamp > ${time} OR id > ${id})`,
          ]),
    ]);
    const direction = older ? "DESC" : "ASC";
    return `SELECT ${SUMMARY_COLUMNS}, toString(toUnixTimestamp64Nano(timestamp)) AS ns,
              ${older ? 1 : 0} AS older FROM ${table} ${where}
            ORDER BY timestamp ${direction}, id ${direction} LIMIT ${count + 1}`;
  };
  const rows = await sql.query<LogRow & { older: number }>(
    `SELECT * FROM (${side(true, before)}) UNION ALL SELECT * FROM (${side(false, after)})`,
  );
  // A union's halves may interleave: order each side again, nearest to the record first.
  const nearest = (older: boolean) =>
    rows
      .filter((r) => (Number(r.older) === 1) === older)
      .sort((a, b) => (older ? -1 : 1) * compareTimeId(a, b));
  const older = nearest(true);
  const newer = nearest(false);
  const item = (row: LogRow, current: boolean) => ({ ...toSummary(row), current });
  return {
    logId,
    service,
    instance,
    data: [
      ...older
        .slice(0, before)
        .reverse()
        .map((r) => item(r, false)),
      item(record, true),
      ...newer.slice(0, after).map((r) => item(r, false)),
    ],
    hasBefore: older.length > before,
    hasAfter: newer.length > after,
  };
}

/** Orders rows by their nanosecond time, then id (the list's tie-break). */
function compareTimeId(a: LogRow, b: LogRow): number {
  const at = BigInt(String(a.ns));
  const bt = BigInt(String(b.ns));
  if (at !== bt) return at < bt ? -1 : 1;
  return String(a.id) < String(b.id) ? -1 : String(a.id) > String(b.id) ? 1 : 0;
}
