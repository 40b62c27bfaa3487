import { z } from "zod";
import {
  type AttributeFieldKind,
  type AttributeFieldList,
  AttributeFieldsQueryShape,
  type AttributeValueList,
  AttributeValuesQueryShape,
  MAX_VALUE_ROWS_READ,
} from "../contracts/attributes.js";
import {
  ATTRIBUTE_PREFIX,
  type ExploreSource,
  RESOURCE_PREFIX,
  resolveField,
} from "../contracts/explore-filters.js";
import { isNumericText } from "../ingest/derive/attribute-catalog.js";
import type {
  CatalogCount,
  CatalogScope,
  UnwrittenCounts,
} from "../ingest/derive/catalog-buffer.js";
import { InvalidInputError } from "../lib/domain-errors.js";
import { dashboardWindow, isoMs, type TimeWindow, WindowQuery } from "../lib/list-params.js";
import type { ReadCtx } from "./read-deps.js";
import { num, Sql, whereClause } from "./sql.js";

/** Without a window, the catalog's last week: fields of a weekly job are suggested too. */
const DEFAULT_RANGE = "7d";
const DAY_MS = 86_400_000;

export const AttributeFieldsQuery = z
  .object({ ...AttributeFieldsQueryShape, ...WindowQuery.shape })
  .strict();
export type AttributeFieldsQuery = z.infer<typeof AttributeFieldsQuery>;

export const AttributeValuesQuery = z
  .object({ ...AttributeValuesQueryShape, ...WindowQuery.shape })
  .strict();
export type AttributeValuesQuery = z.infer<typeof AttributeValuesQuery>;

type Args<Q> = { ctx: ReadCtx; projectId: string } & Q;

/** The whole UTC days the asked window touches: the catalog counts per day. */
function catalogDays(query: WindowQuery, nowMs: number): TimeWindow {
  const asked = dashboardWindow(query, nowMs, DEFAULT_RANGE);
  const fromMs = Math.floor(asked.fromMs / DAY_MS) * DAY_MS;
  return { fromMs, toMs: Math.floor((asked.toMs - 1) / DAY_MS) * DAY_MS + DAY_MS };
}

/** The conditions every catalog read starts with: project, source and days (the key's prefix). */
function catalogWhere(sql: Sql, source: ExploreSource, days: TimeWindow, more: string[]): string {
  const day = (ms: number) => sql.bind(isoMs(ms).slice(0, 10), "Date");
  return whereClause(sql, [
    `signal = ${sql.bind(source)}`,
    ...more,
    `day >= ${day(days.fromMs)}`,
    `day < ${day(days.toMs)}`,
  ]);
}

/** `text` holds `q`, case-insensitively; nothing when there is no `q`. */
const containing = (sql: Sql, column: string, q: string | undefined): string[] =>
  q ? [`positionCaseInsensitiveUTF8(${column}, ${sql.bind(q)}) > 0`] : [];

const kindOf = (field: string): AttributeFieldKind =>
  field.startsWith(ATTRIBUTE_PREFIX)
    ? "attribute"
    : field.startsWith(RESOURCE_PREFIX)
      ? "resource"
      : "column";

/** The catalog's read with this node's counts not written yet (none without an ingesting node). */
const withUnwritten = <T>(
  deps: ReadCtx["deps"]["read"],
  body: (unwritten: UnwrittenCounts | undefined) => Promise<T>,
): Promise<T> => (deps.catalog ? deps.catalog.read(body) : body(undefined));

const scopeOf = (projectId: string, source: ExploreSource, days: TimeWindow): CatalogScope => ({
  projectId,
  source,
  fromDay: isoMs(days.fromMs).slice(0, 10),
  toDay: isoMs(days.toMs).slice(0, 10),
});

/** The counts whose name holds `q`, case-insensitively (all without `q`). */
function containingText(
  counts: Map<string, CatalogCount> | undefined,
  q: string | undefined,
): Map<string, CatalogCount> {
  if (!counts || !q) return counts ?? new Map();
  const needle = q.toLowerCase();
  return new Map([...counts].filter(([name]) => name.toLowerCase().includes(needle)));
}

/** Names in the engine's order: by bytes (UTF-8), as `ORDER BY … , name` sorts them. */
const byBytes = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b));

/**
 * The query's rows (name, counts, most first) with the counts not written yet added, most first
 * then by name as the query orders them, cut to `limit`. Without counts to add: the query's.
 */
function ranked(
  rows: [string, CatalogCount][],
  extra: Map<string, CatalogCount>,
  limit: number,
): [string, CatalogCount][] {
  if (extra.size === 0) return rows.slice(0, limit);
  const counts = new Map(rows);
  for (const [name, count] of extra) {
    const had = counts.get(name);
    counts.set(name, {
      rows: (had?.rows ?? 0) + count.rows,
      numeric: (had?.numeric ?? 0) + count.numeric,
    });
  }
  return [...counts].sort(([a, ca], [b, cb]) => cb.rows - ca.rows || byBytes(a, b)).slice(0, limit);
}

/**
 * The fields of `source` seen in the window, most frequent first: one key range of the catalog
 * per project and source, summed over its days (docs/explore.md, "Attribute catalog").
 */
export async function attributeFields({
  ctx,
  projectId,
  source,
  q,
  limit,
  ...window
}: Args<AttributeFieldsQuery>): Promise<AttributeFieldList> {
  const deps = ctx.deps.read;
  const days = catalogDays(window, deps.clock.now().getTime());
  const sql = new Sql(deps.telemetry, projectId);
  const where = catalogWhere(sql, source, days, containing(sql, "field", q));
  const scope = scopeOf(projectId, source, days);
  return withUnwritten(deps, async (unwritten) => {
    const extra = containingText(unwritten?.fields(scope), q);
    // The query's first `limit` fields once those counts are added are among its first
    // `limit + extra.size`: only the fields with counts to add move up.
    const rows = await sql.query<{ field: string; total: string; numeric: string }>(
      `SELECT field, sum(total_count) AS total, sum(numeric_count) AS numeric
       FROM ${sql.table("attribute_keys")} ${where}
       GROUP BY field ORDER BY total DESC, field LIMIT ${sql.bind(limit + extra.size)}`,
    );
    const counts = ranked(
      rows.map((row) => [row.field, { rows: num(row.total), numeric: num(row.numeric) }]),
      extra,
      limit,
    );
    return {
      source,
      from: isoMs(days.fromMs),
      to: isoMs(days.toMs),
      fields: counts.map(([field, { rows: count, numeric: numericCount }]) => ({
        field,
        kind: kindOf(field),
        count,
        numericCount,
        numeric: count > 0 && numericCount === count,
      })),
    };
  });
}

/**
 * The values of one field of `source` seen in the window, most frequent first: one key range
 * of the catalog per field. A field the source cannot have is a 400 naming `field`.
 */
export async function attributeValues({
  ctx,
  projectId,
  source,
  field,
  q,
  limit,
  ...window
}: Args<AttributeValuesQuery>): Promise<AttributeValueList> {
  if (!resolveField(source, field))
    throw InvalidInputError.forField(
      "field",
      `${source} has no field "${field}": use a column, attributes.<key> or resource.<key>`,
    );
  const deps = ctx.deps.read;
  const days = catalogDays(window, deps.clock.now().getTime());
  const sql = new Sql(deps.telemetry, projectId);
  // '' counts the empty values and those too long to keep: never suggested.
  const where = catalogWhere(sql, source, days, [
    `field = ${sql.bind(field)}`,
    "value != ''",
    ...containing(sql, "value", q),
  ]);
  const scope = scopeOf(projectId, source, days);
  return withUnwritten(deps, async (unwritten) => {
    const pending = unwritten?.values(scope, field);
    pending?.delete("");
    const extra = containingText(pending, q);
    // At most MAX_VALUE_ROWS_READ rows (+1, to tell when there were more), whatever the field.
    const rows = await sql.query<{ value: string; total: string; numeric: number; read: string }>(
      `SELECT value, sum(row_count) AS total, isNotNull(toFloat64OrNull(value)) AS numeric,
         sum(count()) OVER () AS read
       FROM (SELECT value, row_count FROM ${sql.table("attribute_values")} ${where}
         LIMIT ${sql.bind(MAX_VALUE_ROWS_READ + 1)})
       GROUP BY value ORDER BY total DESC, value LIMIT ${sql.bind(limit + extra.size)}`,
    );
    const numeric = new Map(rows.map((row) => [row.value, Boolean(num(row.numeric))]));
    const counts = ranked(
      rows.map((row) => [row.value, { rows: num(row.total), numeric: 0 }]),
      extra,
      limit,
    );
    return {
      source,
      field,
      from: isoMs(days.fromMs),
      to: isoMs(days.toMs),
      values: counts.map(([value, { rows: count }]) => ({
        value,
        count,
        numeric: numeric.get(value) ?? isNumericText(value),
      })),
      complete: num(rows[0]?.read) <= MAX_VALUE_ROWS_READ,
    };
  });
}
