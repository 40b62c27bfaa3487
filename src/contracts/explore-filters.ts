// The explorers' filters: one model for the query builder, the logs and traces explorers and
// their read endpoints (docs/explore.md "Filters"). A filter names a field of a source, an
// operator and a value; `filterExpression` turns it into a ClickHouse condition, with every
// value through the caller's `literal` (a bound parameter in the read API, a quoted literal in
// the builder's TQL), never spliced.
import { z } from "zod";

export const EXPLORE_SOURCES = ["traces", "logs", "metrics"] as const;
export type ExploreSource = (typeof EXPLORE_SOURCES)[number];

/** How a column compares: text, a number, or a time (filters take text and numbers). */
export type FieldKind = "string" | "number";

/**
 * The columns of each source a filter, a group-by or an aggregation may name (the telemetry
 * tables' columns; test/explore-filters.test.ts checks the list against them).
 */
export const SOURCE_COLUMNS: Record<ExploreSource, Readonly<Record<string, FieldKind>>> = {
  traces: {
    service_name: "string",
    service_version: "string",
    operation_name: "string",
    span_kind: "string",
    status: "string",
    status_message: "string",
    http_method: "string",
    http_route: "string",
    http_target: "string",
    http_status_code: "number",
    duration_ms: "number",
    trace_id: "string",
    span_id: "string",
    parent_span_id: "string",
    source: "string",
    session_id: "string",
    user_id: "string",
    scope_name: "string",
  },
  logs: {
    service_name: "string",
    level: "string",
    severity_text: "string",
    severity_number: "number",
    message: "string",
    source: "string",
    trace_id: "string",
    span_id: "string",
    session_id: "string",
    user_id: "string",
    scope_name: "string",
  },
  metrics: {
    metric_name: "string",
    metric_type: "string",
    unit: "string",
    aggregation_temporality: "string",
    service_name: "string",
    value: "number",
    count: "number",
    sum: "number",
    scope_name: "string",
  },
};

/** Field prefixes: `attributes.<key>` (span, log or point attributes), `resource.<key>`. */
export const ATTRIBUTE_PREFIX = "attributes.";
export const RESOURCE_PREFIX = "resource.";

/** A field: a column of the source, `attributes.<key>` or `resource.<key>`. */
export type FieldRef =
  | { kind: "column"; column: string; type: FieldKind }
  | { kind: "attribute"; map: "attributes" | "resource_attributes"; key: string };

/** What a field name refers to in a source, or undefined when it names nothing. */
export function resolveField(source: ExploreSource, field: string): FieldRef | undefined {
  for (const [prefix, map] of [
    [ATTRIBUTE_PREFIX, "attributes"],
    [RESOURCE_PREFIX, "resource_attributes"],
  ] as const) {
    if (field.startsWith(prefix)) {
      const key = field.slice(prefix.length);
      return key.length > 0 ? { kind: "attribute", map, key } : undefined;
    }
  }
  const type = SOURCE_COLUMNS[source][field];
  return type ? { kind: "column", column: field, type } : undefined;
}

export const FILTER_OPS = [
  "=",
  "!=",
  "in",
  "not_in",
  "contains",
  "not_contains",
  "regex",
  "not_regex",
  "exists",
  "not_exists",
  ">",
  ">=",
  "<",
  "<=",
] as const;
export type FilterOp = (typeof FILTER_OPS)[number];

const LIST_OPS: ReadonlySet<FilterOp> = new Set(["in", "not_in"]);
const NO_VALUE_OPS: ReadonlySet<FilterOp> = new Set(["exists", "not_exists"]);
const NUMERIC_OPS: ReadonlySet<FilterOp> = new Set([">", ">=", "<", "<="]);

/** Lookarounds and back-references: JavaScript has them, the engine's RE2 does not. */
const NOT_RE2 = /\(\?<?[=!]|\\[1-9]|\\k</;

/**
 * Why a regular expression cannot run (too long, not a regular expression, or a construct the
 * engine's RE2 lacks), or undefined: checked here so a bad one is a 400 naming the filter's value
 * instead of an engine error.
 */
export function regexProblem(pattern: string): string | undefined {
  if (pattern.length > 256) return "a regular expression has at most 256 characters";
  if (NOT_RE2.test(pattern))
    return "lookarounds and back-references are not supported (RE2 syntax)";
  try {
    new RegExp(pattern);
  } catch (error) {
    return `not a regular expression: ${(error as Error).message}`;
  }
  return undefined;
}

export const MAX_FILTERS = 20;
export const MAX_FILTER_VALUES = 100;
const FilterText = z.string().max(1_000);

export const Filter = z
  .object({
    field: z.string().min(1).max(256).describe("A column, `attributes.<key>` or `resource.<key>`"),
    op: z.enum(FILTER_OPS),
    value: z
      .union([FilterText, z.number(), z.array(FilterText).max(MAX_FILTER_VALUES)])
      .optional()
      .describe("A list for in/not_in, a number for >, >=, <, <=, none for exists/not_exists"),
  })
  .strict()
  .superRefine((filter, ctx) => {
    const problem = (message: string) => ctx.addIssue({ code: "custom", path: ["value"], message });
    if (NO_VALUE_OPS.has(filter.op)) {
      if (filter.value !== undefined) problem(`${filter.op} takes no value`);
    } else if (LIST_OPS.has(filter.op)) {
      if (!Array.isArray(filter.value) || filter.value.length === 0)
        problem(`${filter.op} takes a non-empty list of values`);
    } else if (NUMERIC_OPS.has(filter.op)) {
      if (typeof filter.value !== "number" || !Number.isFinite(filter.value))
        problem(`${filter.op} takes a number`);
    } else if (typeof filter.value !== "string" && typeof filter.value !== "number") {
      problem(`${filter.op} takes one value`);
    } else if (filter.op.endsWith("regex")) {
      const problemOf = regexProblem(String(filter.value));
      if (problemOf) problem(problemOf);
    }
  })
  .meta({ id: "ExploreFilter" });
export type Filter = z.infer<typeof Filter>;

export const Filters = z.array(Filter).max(MAX_FILTERS);
export type Filters = z.infer<typeof Filters>;

/**
 * The `filters` query parameter of the read endpoints: a JSON array of filters, URL-encoded
 * (`filters=[{"field":"attributes.http.route","op":"=","value":"/users"}]`).
 */
export const FiltersParam = z
  .string()
  .max(20_000)
  .transform((text, ctx) => {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      ctx.addIssue({ code: "custom", message: "not JSON: a JSON array of filters" });
      return z.NEVER;
    }
  })
  .pipe(Filters)
  .describe(
    'JSON array of filters `{"field","op","value"}`: field is a column, `attributes.<key>` or `resource.<key>`; op one of ' +
      FILTER_OPS.join(", "),
  );

/** Quotes a ClickHouse identifier (a column name from SOURCE_COLUMNS). */
const identifier = (name: string): string => `\`${name.replace(/[`\\]/g, "\\$&")}\``;

/** A ClickHouse string literal (for the builder's TQL text; the read API binds instead). */
export function quoteString(text: string): string {
  return `'${text.replace(/[\\']/g, "\\$&")}'`;
}

/** The text expression of a field: a column, or `attributes['key']` ('' when the key is absent). */
export function fieldExpression(ref: FieldRef, literal: (text: string) => string): string {
  return ref.kind === "column" ? identifier(ref.column) : `${ref.map}[${literal(ref.key)}]`;
}

/** The numeric expression of a field: an attribute's text read as a number (NULL when not one). */
export function numericExpression(ref: FieldRef, literal: (text: string) => string): string {
  if (ref.kind === "column" && ref.type === "number") return identifier(ref.column);
  return `toFloat64OrNull(${fieldExpression(ref, literal)})`;
}

/** A finite number as SQL text. */
const numberText = (value: number, field: string): string => {
  if (!Number.isFinite(value))
    throw new FilterError(field, `${field} compares with numbers`, "value");
  return String(value);
};

/**
 * One filter as a ClickHouse condition over `source`'s table. `literal` renders a string value
 * (bound or quoted). A field the source does not have, or a number column compared with text,
 * throws FilterError; the caller reports it as a 400 naming the filter (`filters.<i>.field`).
 */
export function filterExpression(
  source: ExploreSource,
  filter: Filter,
  literal: (text: string) => string,
): string {
  const ref = resolveField(source, filter.field);
  if (!ref)
    throw new FilterError(
      filter.field,
      `${source} has no field "${filter.field}": use a column (${Object.keys(SOURCE_COLUMNS[source]).join(", ")}), attributes.<key> or resource.<key>`,
    );
  const text = fieldExpression(ref, literal);
  const value = (v: string | number): string =>
    ref.kind === "column" && ref.type === "number"
      ? numberText(Number(v), filter.field)
      : literal(String(v));
  const values = () => (filter.value as (string | number)[]).map(value).join(", ");
  switch (filter.op) {
    case "=":
      return `${text} = ${value(filter.value as string | number)}`;
    case "!=":
      return `${text} != ${value(filter.value as string | number)}`;
    case "in":
      return `${text} IN (${values()})`;
    case "not_in":
      return `${text} NOT IN (${values()})`;
    case "contains":
      return `positionCaseInsensitiveUTF8(toString(${text}), ${literal(String(filter.value))}) > 0`;
    case "not_contains":
      return `positionCaseInsensitiveUTF8(toString(${text}), ${literal(String(filter.value))}) = 0`;
    case "regex":
      return `match(toString(${text}), ${literal(String(filter.value))})`;
    case "not_regex":
      return `NOT match(toString(${text}), ${literal(String(filter.value))})`;
    case "exists":
      return ref.kind === "attribute"
        ? `mapContains(${ref.map}, ${literal(ref.key)})`
        : ref.type === "number"
          ? `${text} != 0`
          : `${text} != ''`;
    case "not_exists":
      return ref.kind === "attribute"
        ? `NOT mapContains(${ref.map}, ${literal(ref.key)})`
        : ref.type === "number"
          ? `${text} = 0`
          : `${text} = ''`;
    default:
      return `${numericExpression(ref, literal)} ${filter.op} ${numberText(filter.value as number, filter.field)}`;
  }
}

/** A filter its source cannot apply: an unknown field, or text for a number column. */
export class FilterError extends Error {
  constructor(
    readonly field: string,
    message: string,
    /** Which part of the filter is wrong. */
    readonly part: "field" | "value" = "field",
  ) {
    super(message);
  }
}
