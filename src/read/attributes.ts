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
  const rows = await sql.query<{ field: string; total: string; numeric: string }>(
    `SELECT field, sum(total_count) AS total, sum(numeric_count) AS numeric
     FROM ${sql.table("attribute_keys")} ${where}
     GROUP BY field ORDER BY total DESC, field LIMIT ${sql.bind(limit)}`,
  );
  return {
    source,
    from: isoMs(days.fromMs),
    to: isoMs(days.toMs),
    fields: rows.map((row) => {
      const count = num(row.total);
      const numericCount = num(row.numeric);
      return {
        field: row.field,
        kind: kindOf(row.field),
        count,
        numericCount,
        numeric: count > 0 && numericCount === count,
      };
    }),
  };
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
  // At most MAX_VALUE_ROWS_READ rows (+1, to tell when there were more), whatever the field.
  const rows = await sql.query<{ value: string; total: string; numeric: number; read: string }>(
    `SELECT value, sum(row_count) AS total, isNotNull(toFloat64OrNull(value)) AS numeric,
       sum(count()) OVER () AS read
     FROM (SELECT value, row_count FROM ${sql.table("attribute_values")} ${where}
       LIMIT ${sql.bind(MAX_VALUE_ROWS_READ + 1)})
     GROUP BY value ORDER BY total DESC, value LIMIT ${sql.bind(limit)}`,
  );
  return {
    source,
    field,
    from: isoMs(days.fromMs),
    to: isoMs(days.toMs),
    values: rows.map((row) => ({
      value: row.value,
      count: num(row.total),
      numeric: Boolean(num(row.numeric)),
    })),
    complete: num(rows[0]?.read) <= MAX_VALUE_ROWS_READ,
  };
}
