import { z } from "zod";
import {
  MAX_METRIC_KEYS,
  type MetricNameList,
  type MetricNameView,
} from "../contracts/metric-names.js";
import { METRIC_TYPES } from "../contracts/metric-queries.js";
import { pageInfo } from "../contracts/pagination.js";
import { dashboardWindow, isoMs, PageQuery, WindowQuery } from "../lib/list-params.js";
import type { ReadCtx } from "./read-deps.js";
import { containsPattern, num, Sql, whereClause } from "./sql.js";

export const MetricNamesQuery = z
  .object({
    q: z
      .string()
      .max(200)
      .optional()
      .describe("Only metrics whose name or description contains this text (any case)"),
    type: z.enum(METRIC_TYPES).optional().describe("Only metrics of this type"),
    ...WindowQuery.shape,
    ...PageQuery.shape,
  })
  .strict();
export type MetricNamesQuery = z.infer<typeof MetricNamesQuery>;

type NameRow = {
  name: string;
  type: MetricNameView["type"];
  last_unit: string;
  last_description: string;
  temporality: MetricNameView["temporality"];
  monotonic: boolean | number;
  points: string | number;
  last_ms: string | number;
};
type DetailRow = {
  name: string;
  type: string;
  attribute_keys: string[];
  resource_keys: string[];
  services: string[];
  series: string | number;
};

/**
 * The project's metrics in the window, by name (and type, should one name carry two), with
 * their unit, description, temporality, attribute keys, series and last point (default: 24h).
 * Two statements: the names from the table's key and its light columns, then the attribute
 * maps read for the page's names only (the table is ordered by metric name, so `IN` reads
 * just their ranges).
 */
export async function metricNames({
  ctx,
  projectId,
  ...query
}: { ctx: ReadCtx; projectId: string } & MetricNamesQuery): Promise<MetricNameList> {
  const deps = ctx.deps.read;
  const window = dashboardWindow(query, deps.clock.now().getTime(), "24h");
  const sql = new Sql(deps.telemetry, projectId);
  const table = sql.table("metrics");
  const conditions = sql.within("timestamp", window);
  if (query.type) conditions.push(`metric_type = ${sql.bind(query.type)}`);
  if (query.q) {
    const pattern = sql.bind(containsPattern(query.q));
    conditions.push(`(metric_name ILIKE ${pattern} OR description ILIKE ${pattern})`);
  }
  const where = whereClause(sql, conditions);
  // The latest non-empty unit and description (a newer SDK may have fixed them), under names
  // of their own: an alias named like a column would stand for it in WHERE.
  const latest = (column: string) =>
    `tupleElement(argMaxIf((${column}, timestamp), timestamp, ${column} != ''), 1)`;
  const names = await sql.query<NameRow>(
    `SELECT metric_name AS name, metric_type AS type, ${latest("unit")} AS last_unit,
       ${latest("description")} AS last_description,
       argMax(aggregation_temporality, timestamp) AS temporality,
       argMax(is_monotonic, timestamp) AS monotonic, count() AS points,
       toUnixTimestamp64Milli(max(timestamp)) AS last_ms
     FROM ${table} ${where}
     GROUP BY name, type ORDER BY name, type`,
  );
  const start = (query.page - 1) * query.limit;
  const page = names.slice(start, start + query.limit);
  const details = new Map<string, DetailRow>();
  if (page.length > 0) {
    const list = sql.bind([...new Set(page.map((row) => row.name))]);
    const rows = await sql.query<DetailRow>(
      `SELECT metric_name AS name, metric_type AS type,
         arraySort(groupUniqArrayArray(${MAX_METRIC_KEYS})(mapKeys(attributes))) AS attribute_keys,
         arraySort(groupUniqArrayArray(${MAX_METRIC_KEYS})(mapKeys(resource_attributes))) AS resource_keys,
         arraySort(groupUniqArray(100)(service_name)) AS services,
         uniq(service_name, attributes, resource_attributes) AS series
       FROM ${table} ${where} AND metric_name IN ${list}
       GROUP BY name, type`,
    );
    for (const row of rows) details.set(`${row.name}\u0000${row.type}`, row);
  }
  return {
    data: page.map((row): MetricNameView => {
      const detail = details.get(`${row.name}\u0000${row.type}`);
      return {
        name: row.name,
        type: row.type,
        unit: row.last_unit,
        description: row.last_description,
        temporality: row.temporality,
        monotonic: Boolean(Number(row.monotonic)),
        attributeKeys: detail?.attribute_keys ?? [],
        resourceKeys: detail?.resource_keys ?? [],
        services: detail?.services ?? [],
        series: num(detail?.series),
        points: num(row.points),
        lastSeen: isoMs(num(row.last_ms)),
      };
    }),
    pagination: pageInfo(query, names.length),
  };
}
