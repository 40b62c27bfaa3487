import { CATALOG_COLUMNS, MAX_CATALOG_VALUE_LENGTH } from "../contracts/attributes.js";
import {
  ATTRIBUTE_PREFIX,
  EXPLORE_SOURCES,
  type ExploreSource,
  RESOURCE_PREFIX,
  SOURCE_COLUMNS,
} from "../contracts/explore-filters.js";
import type { DerivedTableDef, DerivedView } from "./derived-view.js";
import { c, LC, project, QUIET_DAYS_MERGED } from "./tables.js";

/**
 * Each row's fields as `(field, value)` text pairs, as the explorers' filters name them: every
 * attribute as `attributes.<key>`, every resource attribute as `resource.<key>`, and the
 * source's catalog columns that have a value ('' and 0 are none).
 */
function fieldPairs(source: ExploreSource): string {
  const columns = CATALOG_COLUMNS[source].map((name) =>
    SOURCE_COLUMNS[source][name] === "number"
      ? `('${name}', if(${name} = 0, '', toString(${name})))`
      : `('${name}', toString(${name}))`,
  );
  const map = (prefix: string, column: string) =>
    `arrayMap((k, v) -> (concat('${prefix}', k), v), mapKeys(${column}), mapValues(${column}))`;
  return `arrayConcat(
    ${map(ATTRIBUTE_PREFIX, "attributes")},
    ${map(RESOURCE_PREFIX, "resource_attributes")},
    arrayFilter(p -> p.2 != '', [${columns.join(", ")}])) AS pair`;
}

const signal = c("signal", LC, "`traces`, `logs` or `metrics`: the table the rows counted are in");
const field = c("field", LC, "`attributes.<key>`, `resource.<key>` or a column's name");
const day = c("day", "Date", "UTC day of the rows counted");

/** Both tables: their rows are counts to add up, per project and source first (every read's key). */
const catalogTable = {
  partitionBy: "day",
  ttlExpression: "day",
  indexes: [],
  // A past day ends as one part, its counts summed into one row per key.
  liveSettings: QUIET_DAYS_MERGED,
  shardingKey: "cityHash64(project_id, signal, field)",
} as const;

/**
 * A field whose values are too varied to suggest: in one insert, more than this many distinct
 * values, and more values than half the rows carrying it (ids, timestamps, full URLs).
 */
export const VARIED_FIELD_MIN_VALUES = 100;

const MAX_LENGTH = MAX_CATALOG_VALUE_LENGTH;
/** Per field of the insert, after grouping by value: its distinct values, its rows. */
const perField = "OVER (PARTITION BY project_id, field, day)";

/**
 * How often each value of each field was seen per day (docs/explore.md, "Attribute catalog"):
 * what the value suggestions read, one key range per field. Counted as '' (never suggested): an
 * empty value, one over MAX_CATALOG_VALUE_LENGTH characters, and every value of a field too
 * varied in its insert (VARIED_FIELD_MIN_VALUES), which would copy the source row for row.
 *
 * Ingestion writes it: the batch writer counts each write's rows (src/ingest/derive/
 * attribute-catalog.ts) and inserts the counts beside them, at a fraction of the engine CPU the
 * views expanding every inserted row cost (issue 37). The same rules as SQL (`fills`) count
 * the rows already stored when the table is created over existing data.
 */
export const ATTRIBUTE_VALUES: DerivedTableDef = {
  ...catalogTable,
  name: "attribute_values",
  description: `Values of spans', logs' and metric points' fields per project and day, with how many rows carry each ('' for empty values, values over ${MAX_LENGTH} characters, and fields with mostly distinct values).`,
  columns: [
    project,
    signal,
    field,
    c("value", "String", "The value as text; '' for one not kept"),
    day,
    c("row_count", "UInt64", "Rows carrying the field with this value"),
    c("numeric_count", "UInt64", "Of those rows, the ones whose value parses as a number"),
  ],
  engine: "SummingMergeTree((row_count, numeric_count))",
  orderBy: "(project_id, signal, field, value, day)",
  views: [],
  fills: EXPLORE_SOURCES.map(
    (source): DerivedView => ({
      name: `attribute_values_${source}`,
      source,
      columns: `project_id, '${source}' AS signal, pair.1 AS field,
  if(count() ${perField} > ${VARIED_FIELD_MIN_VALUES} AND count() ${perField} * 2 > sum(count()) ${perField}, '', kept) AS value,
  toDate(timestamp) AS day, count() AS row_count, countIf(isNotNull(toFloat64OrNull(pair.2))) AS numeric_count`,
      arrayJoin: fieldPairs(source),
      groupBy: `project_id, field, if(lengthUTF8(pair.2) <= ${MAX_LENGTH}, pair.2, '') AS kept, day`,
    }),
  ),
};

/**
 * The materialized views that filled attribute_values from every insert into the telemetry
 * tables before ingestion counted the catalog itself: dropped at start (OBSOLETE), or both
 * would count each row.
 */
export const OBSOLETE_CATALOG_VIEWS = EXPLORE_SOURCES.map(
  (source) => `attribute_values_${source}_mv`,
);

/**
 * How often each field of each source was seen per day, and how many of its values are numbers:
 * what the field suggestions read, one key range per project and source. Filled from the rows
 * attribute_values receives (a block already grouped by value), not from the telemetry again.
 */
export const ATTRIBUTE_KEYS: DerivedTableDef = {
  ...catalogTable,
  name: "attribute_keys",
  description:
    "Fields of spans, logs and metric points per project and day, with how many rows carry them and how many of those values are numbers.",
  columns: [
    project,
    signal,
    field,
    day,
    c("total_count", "UInt64", "Rows carrying the field"),
    c("numeric_count", "UInt64", "Of those rows, the ones whose value parses as a number"),
  ],
  engine: "SummingMergeTree((total_count, numeric_count))",
  orderBy: "(project_id, signal, field, day)",
  views: [
    {
      name: "attribute_keys_mv",
      source: "attribute_values",
      columns: `project_id, signal, field, day, sum(row_count) AS total_count,
  sum(numeric_count) AS numeric_count`,
      groupBy: "project_id, signal, field, day",
      backfillSince: "day >= yesterday()",
    },
  ],
};
