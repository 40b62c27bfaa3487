import { z } from "zod";
import { CATALOG_COLUMNS, MAX_SUGGESTIONS } from "../contracts/attributes.js";
import type { LogFacet, LogFacets } from "../contracts/logs.js";
import { dashboardWindow, isoMs, type TimeWindow, WindowQuery } from "../lib/list-params.js";
import { attributeFields } from "./attributes.js";
import { LogFilterQuery, logFilterConditions } from "./log-filter.js";
import type { ReadCtx } from "./read-deps.js";
import { num, Sql, whereClause } from "./sql.js";

export const LogFacetsQuery = z
  .object({
    ...LogFilterQuery.shape,
    ...WindowQuery.shape,
    values: z.coerce
      .number()
      .int()
      .min(1)
      .max(50)
      .default(10)
      .describe("The most frequent values each facet lists, 1–50"),
    keys: z.coerce
      .number()
      .int()
      .min(0)
      .max(50)
      .default(10)
      .describe("How many attribute keys get a facet (the most frequent), 0–50"),
  })
  .strict();
export type LogFacetsQuery = z.infer<typeof LogFacetsQuery>;

/**
 * Attribute facets are counted over at most this many of the newest matching records: reading
 * every record's attribute maps would cost far more than the list itself on a large window.
 */
export const FACET_SAMPLE_ROWS = 5_000;

/** The columns with a facet of their own, always present and counted exactly. */
const COLUMN_FACETS = ["service_name", "level", "source"] as const;

/** Shown as the service facet already. */
const SKIPPED_KEYS = ["resource.service.name"];

interface FacetRow {
  field: string;
  value: string;
  c: string;
  field_rows: string;
  distinct_values: string;
}

/** Per field: its rows' count and distinct values beside each value's count, top `values` by field. */
const ranked = (pairs: string, extra = "") =>
  `SELECT field, value, c, field_rows, distinct_values${extra} FROM (
     SELECT field, value, c, sum(c) OVER (PARTITION BY field) AS field_rows,
            count() OVER (PARTITION BY field) AS distinct_values
     FROM (${pairs}))`;

/**
 * Value counts of the records the list shows (its filters, search included, over the window,
 * default 24h): service, level and source exactly, over every matching record; then attribute
 * and resource keys with their most frequent values, over the newest FACET_SAMPLE_ROWS matching
 * records (exact when no more match, `sampled` otherwise). The candidate keys are the attribute
 * catalog's most frequent of the window (three per facet asked), ranked by how many sampled
 * records carry them; the sample's own keys when the catalog has none.
 */
export async function logFacets({
  ctx,
  projectId,
  ...query
}: { ctx: ReadCtx; projectId: string } & LogFacetsQuery): Promise<LogFacets> {
  const deps = ctx.deps.read;
  const window = dashboardWindow(query, deps.clock.now().getTime());
  const sql = new Sql(deps.telemetry, projectId);
  const table = sql.table("logs");
  const where = whereClause(sql, [
    ...sql.within("timestamp", window),
    ...logFilterConditions(sql, query),
  ]);
  const columnPairs = COLUMN_FACETS.map((c) => `('${c}', toString(${c}))`).join(", ");
  const columnRows = sql.query<FacetRow>(
    `${ranked(
      `SELECT kv.1 AS field, kv.2 AS value, sum(c) AS c FROM (
         SELECT ${COLUMN_FACETS.join(", ")}, count() AS c FROM ${table} ${where}
         GROUP BY ${COLUMN_FACETS.join(", ")})
       ARRAY JOIN [${columnPairs}] AS kv GROUP BY field, value`,
    )} ORDER BY field, c DESC, value LIMIT ${query.values} BY field`,
  );
  // Started before the catalog is asked: the two run side by side.
  columnRows.catch(() => undefined);
  const candidates = query.keys === 0 ? [] : await catalogKeys(ctx, projectId, window, query.keys);
  const attributeRows =
    query.keys === 0
      ? []
      : await sql.query<FacetRow>(
          `SELECT field, value, c, field_rows, distinct_values FROM (
             ${ranked(
               `SELECT kv.1 AS field, kv.2 AS value, count() AS c FROM (
                  SELECT attributes, resource_attributes FROM ${table} ${where}
                  ORDER BY timestamp DESC LIMIT ${FACET_SAMPLE_ROWS})
                ARRAY JOIN arrayConcat(${ATTRIBUTE_PAIRS}) AS kv
                WHERE ${candidates.length > 0 ? `has(${sql.bind(candidates)}, field)` : `field NOT IN (${SKIPPED_KEYS.map((k) => `'${k}'`).join(", ")})`}
                GROUP BY field, value`,
               ", dense_rank() OVER (ORDER BY field_rows DESC, field) AS field_rank",
             )})
           WHERE field_rank <= ${query.keys}
           ORDER BY field_rows DESC, field, c DESC, value LIMIT ${query.values} BY field`,
        );
  const columns = facetsOf(await columnRows, false);
  const total = columns.find((f) => f.field === "level")?.count ?? 0;
  const sampled = total > FACET_SAMPLE_ROWS;
  return {
    from: isoMs(window.fromMs),
    to: isoMs(window.toMs),
    total,
    facets: [
      ...COLUMN_FACETS.map(
        (field) =>
          columns.find((f) => f.field === field) ?? {
            field,
            count: 0,
            distinct: 0,
            values: [],
            sampled: false,
          },
      ),
      ...facetsOf(attributeRows, sampled),
    ],
    sampled,
    sampleSize: Math.min(total, FACET_SAMPLE_ROWS),
    keySource: candidates.length > 0 ? "catalog" : "sample",
  };
}

/** Every attribute and resource key of a record with its value, as `attributes.<key>`/`resource.<key>`. */
const ATTRIBUTE_PAIRS = [
  ["attributes", "attributes"],
  ["resource_attributes", "resource"],
]
  .map(
    ([map, prefix]) =>
      `arrayMap((k, v) -> ('${prefix}.' || k, v), mapKeys(${map}), mapValues(${map}))`,
  )
  .join(", ");

/** The catalog's most frequent attribute and resource keys of logs in the window. */
async function catalogKeys(
  ctx: ReadCtx,
  projectId: string,
  window: TimeWindow,
  keys: number,
): Promise<string[]> {
  const catalog = await attributeFields({
    ctx,
    projectId,
    source: "logs",
    limit: Math.min(MAX_SUGGESTIONS, keys * 3 + CATALOG_COLUMNS.logs.length + SKIPPED_KEYS.length),
    from: isoMs(window.fromMs),
    to: isoMs(window.toMs),
  });
  return catalog.fields
    .filter((f) => f.kind !== "column" && !SKIPPED_KEYS.includes(f.field))
    .slice(0, keys * 3)
    .map((f) => f.field);
}

/** The rows of one ranked query as facets, in the order the query gave their fields. */
function facetsOf(rows: FacetRow[], sampled: boolean): LogFacet[] {
  const facets = new Map<string, LogFacet>();
  for (const row of rows) {
    let facet = facets.get(row.field);
    if (!facet) {
      facet = {
        field: row.field,
        count: num(row.field_rows),
        distinct: num(row.distinct_values),
        values: [],
        sampled,
      };
      facets.set(row.field, facet);
    }
    facet.values.push({ value: row.value, count: num(row.c) });
  }
  return [...facets.values()];
}
