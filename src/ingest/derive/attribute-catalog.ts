import { CATALOG_COLUMNS, MAX_CATALOG_VALUE_LENGTH } from "../../contracts/attributes.js";
import {
  ATTRIBUTE_PREFIX,
  type ExploreSource,
  RESOURCE_PREFIX,
} from "../../contracts/explore-filters.js";
import { VARIED_FIELD_MIN_VALUES } from "../../telemetry/attribute-catalog-tables.js";
import { UnixTime } from "../../telemetry/unix-time.js";
import type { Row } from "../ingest-batch.js";

// The attribute catalog's counts of one write (docs/explore.md, "Attribute catalog"), folded
// here instead of by a materialized view per source table: the view expanded every row into its
// (field, value) pairs inside the engine, a third of a span insert's engine CPU; counting them
// into maps costs a few hundred nanoseconds a span. The rules are the view's, kept as the
// backfill's SQL in attribute-catalog-tables.ts, and test/attribute-catalog.int.test.ts checks
// that both count the same rows alike.

/** The telemetry tables whose rows the catalog counts, and the table it writes. */
const CATALOG_SOURCES = ["traces", "logs", "metrics"] as const satisfies readonly ExploreSource[];
export const CATALOG_TABLE = "attribute_values";

/** One attribute_values row: a value of a field of a project's source on a day, and its counts. */
export type CatalogRow = {
  project_id: unknown;
  signal: ExploreSource;
  field: string;
  value: string;
  /** `YYYY-MM-DD`. */
  day: string;
  row_count: number;
  numeric_count: number;
};

/** Rows carrying each value of one field. */
type Counts = Map<unknown, number>;

/** One project's fields on one UTC day of the write. */
interface DayFields {
  projectId: unknown;
  day: number;
  attributes: Map<string, Counts>;
  /** Each resource's attribute map (one object shared by all its rows) → its rows. */
  resources: Map<Readonly<Record<string, string>>, number>;
  /** Per catalog column of the source, in CATALOG_COLUMNS' order. */
  columns: Counts[];
}

const SECONDS_PER_DAY = 86_400;

/**
 * Text ClickHouse's `toFloat64OrNull` reads as a number, whole: decimal with an optional
 * fraction and exponent, `inf`/`infinity`, `nan` with an optional `(chars)`, any case, a sign;
 * no spaces, hex, separators or non-ASCII digits.
 */
const NUMERIC_TEXT =
  /^[+-]?(?:(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?|inf(?:inity)?|nan(?:\([0-9a-z_]*\))?)$/i;

export const isNumericText = (text: string): boolean => NUMERIC_TEXT.test(text);

/** Characters counted as ClickHouse's lengthUTF8 counts them: code points (a pair is one). */
function codePointsAtMost(text: string, max: number): boolean {
  if (text.length <= max) return true;
  if (text.length > 2 * max) return false;
  let n = text.length;
  for (let i = 0; i < text.length - 1; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        n--;
        i++;
      }
    }
  }
  return n <= max;
}

/** Seconds of a row's time, as the Native encoder takes it: a UnixTime or `seconds[.fraction]`. */
function secondsOf(value: unknown): number {
  if (value instanceof UnixTime) return value.seconds;
  if (typeof value === "number") return value;
  if (typeof value === "string") return Number.parseInt(value, 10) || 0;
  return 0;
}

function add(counts: Counts, value: unknown, rows: number): void {
  counts.set(value, (counts.get(value) ?? 0) + rows);
}

function addField(fields: Map<string, Counts>, key: string, value: unknown, rows: number): void {
  let counts = fields.get(key);
  if (!counts) {
    counts = new Map();
    fields.set(key, counts);
  }
  add(counts, value, rows);
}

/** `YYYY-MM-DD` of a day number (days since 1970-01-01, UTC). */
const dayText = (day: number): string =>
  new Date(day * SECONDS_PER_DAY * 1000).toISOString().slice(0, 10);

/**
 * The attribute_values rows of one insert of `rows` into the `source` table: per project, UTC
 * day, field and kept value, how many rows carry it and how many of those values are numbers.
 */
export function catalogRows(source: ExploreSource, rows: readonly Row[]): CatalogRow[] {
  const columns = CATALOG_COLUMNS[source];
  const groups: DayFields[] = [];
  let group: DayFields | undefined;
  for (const row of rows) {
    const day = Math.max(0, Math.floor(secondsOf(row.timestamp) / SECONDS_PER_DAY));
    if (group === undefined || group.projectId !== row.project_id || group.day !== day) {
      group = groups.find((g) => g.projectId === row.project_id && g.day === day);
      if (group === undefined) {
        group = {
          projectId: row.project_id,
          day,
          attributes: new Map(),
          resources: new Map(),
          columns: columns.map(() => new Map()),
        };
        groups.push(group);
      }
    }
    const attributes = row.attributes as Record<string, string> | undefined;
    if (attributes)
      for (const key in attributes)
        if (Object.hasOwn(attributes, key)) addField(group.attributes, key, attributes[key], 1);
    const resource = row.resource_attributes as Record<string, string> | undefined;
    if (resource) group.resources.set(resource, (group.resources.get(resource) ?? 0) + 1);
    for (let i = 0; i < columns.length; i++) {
      const value = row[columns[i] as string];
      // A column counts when it has a value: '' and a number column's 0 do not.
      if (value === "" || value === 0 || value === undefined || value === null) continue;
      add(group.columns[i] as Counts, value, 1);
    }
  }
  const out: CatalogRow[] = [];
  for (const g of groups) {
    const resources = new Map<string, Counts>();
    for (const [attributes, n] of g.resources)
      for (const key in attributes)
        if (Object.hasOwn(attributes, key)) addField(resources, key, attributes[key], n);
    const emit = (field: string, counts: Counts) =>
      fieldRows(out, { projectId: g.projectId, source, field, day: dayText(g.day) }, counts);
    for (const [key, counts] of g.attributes) emit(`${ATTRIBUTE_PREFIX}${key}`, counts);
    for (const [key, counts] of resources) emit(`${RESOURCE_PREFIX}${key}`, counts);
    columns.forEach((name, i) => {
      const counts = g.columns[i] as Counts;
      if (counts.size > 0) emit(name, counts);
    });
  }
  return out;
}

/**
 * The catalog rows of what one write wrote: `rowsOf` gives each telemetry table's rows written
 * ([] for none).
 */
export function writtenCatalogRows(
  rowsOf: (source: ExploreSource) => readonly Row[],
): CatalogRow[] {
  return CATALOG_SOURCES.flatMap((source) => {
    const rows = rowsOf(source);
    return rows.length > 0 ? catalogRows(source, rows) : [];
  });
}

/**
 * One field's rows: its values grouped by the value kept ('' for one over
 * MAX_CATALOG_VALUE_LENGTH characters), or one '' row when the field is too varied in this
 * insert (more than VARIED_FIELD_MIN_VALUES kept values, more than half its rows).
 */
function fieldRows(
  out: CatalogRow[],
  key: { projectId: unknown; source: ExploreSource; field: string; day: string },
  counts: Counts,
): void {
  const kept = new Map<string, { rows: number; numeric: number }>();
  let total = 0;
  let numericTotal = 0;
  for (const [value, rows] of counts) {
    const text = typeof value === "string" ? value : String(value);
    const keep = codePointsAtMost(text, MAX_CATALOG_VALUE_LENGTH) ? text : "";
    let sums = kept.get(keep);
    if (!sums) {
      sums = { rows: 0, numeric: 0 };
      kept.set(keep, sums);
    }
    const numeric = isNumericText(text) ? rows : 0;
    sums.rows += rows;
    sums.numeric += numeric;
    total += rows;
    numericTotal += numeric;
  }
  const row = (value: string, rows: number, numeric: number): CatalogRow => ({
    project_id: key.projectId,
    signal: key.source,
    field: key.field,
    value,
    day: key.day,
    row_count: rows,
    numeric_count: numeric,
  });
  if (kept.size > VARIED_FIELD_MIN_VALUES && kept.size * 2 > total) {
    out.push(row("", total, numericTotal));
    return;
  }
  for (const [value, sums] of kept) out.push(row(value, sums.rows, sums.numeric));
}
