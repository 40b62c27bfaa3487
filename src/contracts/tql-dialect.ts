/**
 * The words and limits of TQL that the server's compiler and the dashboard's editor share, as
 * plain data: the data types a CAST may name, the units of INTERVAL and the spec's limits on
 * one query (docs/tql.md). It imports nothing, so the browser bundles it without zod.
 */

/** The spec's limits on one query: its text, and the rows a result holds (more: `truncated`). */
export const TQL_MAX_QUERY_LENGTH = 50_000;
export const TQL_MAX_RESULT_ROWS = 10_000;

/** The data types a CAST (or `::`) may name, in ClickHouse's spelling. */
export const CAST_TYPE_NAMES = [
  "UInt8",
  "UInt16",
  "UInt32",
  "UInt64",
  "UInt128",
  "UInt256",
  "Int8",
  "Int16",
  "Int32",
  "Int64",
  "Int128",
  "Int256",
  "Float32",
  "Float64",
  "BFloat16",
  "String",
  "UUID",
  "Date",
  "Date32",
  "Bool",
  "IPv4",
  "IPv6",
  "FixedString",
  "Decimal",
  "Decimal32",
  "Decimal64",
  "Decimal128",
  "Decimal256",
  "DateTime",
  "DateTime64",
  "Nullable",
  "LowCardinality",
  "Array",
  "Map",
  "Tuple",
] as const;
export type CastTypeName = (typeof CAST_TYPE_NAMES)[number];

/** Units of `INTERVAL n UNIT`, singular; the parser reads the plurals too. */
export const INTERVAL_UNITS = [
  "NANOSECOND",
  "MICROSECOND",
  "MILLISECOND",
  "SECOND",
  "MINUTE",
  "HOUR",
  "DAY",
  "WEEK",
  "MONTH",
  "QUARTER",
  "YEAR",
] as const;
export type IntervalUnit = (typeof INTERVAL_UNITS)[number];
