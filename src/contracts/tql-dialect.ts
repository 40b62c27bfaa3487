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

/**
 * Bound parameters, `{name:Type}` anywhere an expression may stand (docs/tql.md "Parameters and
 * time macros"): the scalar types a placeholder may declare, alone or as `Array(T)`;
 * `DateTime64` takes a precision, `DateTime64(3)`.
 */
export const TQL_PARAMETER_TYPES = [
  "String",
  "Bool",
  "Int8",
  "Int16",
  "Int32",
  "Int64",
  "UInt8",
  "UInt16",
  "UInt32",
  "UInt64",
  "Float32",
  "Float64",
  "Date",
  "DateTime",
  "DateTime64",
] as const;
export type TqlParameterType = (typeof TQL_PARAMETER_TYPES)[number];

/** A placeholder's name: a letter or `_`, then up to 63 letters, digits or `_`. */
export const TQL_PARAMETER_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;

/** The time window every query may use; the caller supplies the values, the types are fixed. */
export const TQL_WINDOW_PARAMETERS = {
  from: "DateTime64(3)",
  to: "DateTime64(3)",
  bucket_seconds: "UInt32",
} as const;
export type TqlWindowParameter = keyof typeof TQL_WINDOW_PARAMETERS;

/** The time macros and what each expands to (`col` is the macro's one argument). */
export const TQL_MACROS = {
  $__timeFilter: "col >= {from:DateTime64(3)} AND col < {to:DateTime64(3)}",
  $__timeInterval: "toStartOfInterval(col, toIntervalSecond({bucket_seconds:UInt32}))",
} as const;
export type TqlMacro = keyof typeof TQL_MACROS;

/** Limits on the values a query is given: how many, each string's length, each array's items. */
export const TQL_MAX_PARAMETERS = 64;
export const TQL_MAX_PARAMETER_STRING_LENGTH = 4096;
export const TQL_MAX_PARAMETER_ARRAY_ITEMS = 1000;
/**
 * The values one query uses, together, at most (bytes of UTF-8 text, 3 more per list item): the
 * engine reads them in one statement, whose size it bounds.
 */
export const TQL_MAX_PARAMETER_BYTES = 50_000;
