// The attribute catalog as the read API answers it (GET /v1/attributes, /v1/attributes/values),
// shared with the dashboard's field and value suggestions (docs/explore.md "Attribute catalog").
import { z } from "zod";
import type { Permission } from "./auth.js";
import { EXPLORE_SOURCES, type ExploreSource } from "./explore-filters.js";

/** Longer values are not kept in the catalog (their key still counts). */
export const MAX_CATALOG_VALUE_LENGTH = 256;

/**
 * The columns of each source the catalog counts and keeps the values of, besides every
 * `attributes.<key>` and `resource.<key>`: the ones with few distinct values.
 */
export const CATALOG_COLUMNS: Record<ExploreSource, readonly string[]> = {
  traces: [
    "service_name",
    "operation_name",
    "span_kind",
    "status",
    "http_method",
    "http_route",
    "http_status_code",
  ],
  logs: ["service_name", "level", "source", "severity_text"],
  metrics: ["metric_name", "service_name", "metric_type", "unit"],
};

/** What reading each source takes: the same permission as its own read endpoints. */
export const SOURCE_PERMISSIONS: Record<ExploreSource, Permission> = {
  traces: "traces:read",
  logs: "logs:read",
  metrics: "infra:read",
};

export const ATTRIBUTE_FIELD_KINDS = ["column", "attribute", "resource"] as const;
export type AttributeFieldKind = (typeof ATTRIBUTE_FIELD_KINDS)[number];

/** Catalog rows (a value of a day) one values answer reads at most: what keeps it fast. */
export const MAX_VALUE_ROWS_READ = 50_000;

/** Suggestions per answer: more than a list can show. */
export const MAX_SUGGESTIONS = 1000;

export const AttributeSource = z
  .enum(EXPLORE_SOURCES)
  .describe("Which telemetry: traces (span attributes), logs or metrics (data point attributes)");

/** A source, `traces` when absent. */
const SourceParam = AttributeSource.default("traces").describe(
  "Which telemetry: traces (span attributes; the default), logs or metrics (data point attributes)",
);

const Search = z
  .string()
  .max(MAX_CATALOG_VALUE_LENGTH)
  .optional()
  .describe("Only names containing this text, case-insensitive");

const Limit = z.coerce
  .number()
  .int()
  .min(1)
  .max(MAX_SUGGESTIONS)
  .default(50)
  .describe(`At most this many, 1–${MAX_SUGGESTIONS} (default 50)`);

/** The query of GET /v1/attributes, without the window (the route adds WindowQuery). */
export const AttributeFieldsQueryShape = { source: SourceParam, q: Search, limit: Limit };

/** The query of GET /v1/attributes/values, without the window. */
export const AttributeValuesQueryShape = {
  source: SourceParam,
  field: z
    .string()
    .min(1)
    .max(MAX_CATALOG_VALUE_LENGTH)
    .default("service_name")
    .describe("A field: a column, `attributes.<key>` or `resource.<key>` (default service_name)"),
  q: Search.describe("Only values containing this text, case-insensitive"),
  limit: Limit,
};

export const AttributeField = z
  .object({
    field: z
      .string()
      .describe("What a filter's `field` takes: a column, `attributes.<key>` or `resource.<key>`"),
    kind: z.enum(ATTRIBUTE_FIELD_KINDS),
    count: z
      .number()
      .int()
      .describe("Spans, log records or data points carrying it (a column: with a value)"),
    numericCount: z.number().int().describe("How many of them carry a value that is a number"),
    numeric: z
      .boolean()
      .describe("Every value seen is a number: numeric comparisons and aggregations apply"),
  })
  .meta({ id: "AttributeField" });
export type AttributeField = z.infer<typeof AttributeField>;

/** The catalog counts per UTC day: the window read is the whole days the one asked for touches. */
const Window = {
  from: z.string().describe("Start of the first UTC day counted, ISO 8601"),
  to: z.string().describe("End of the last UTC day counted (exclusive), ISO 8601"),
};

export const AttributeFieldList = z
  .object({ source: AttributeSource, ...Window, fields: z.array(AttributeField) })
  .meta({ id: "AttributeFieldList" });
export type AttributeFieldList = z.infer<typeof AttributeFieldList>;

export const AttributeValue = z
  .object({
    value: z.string(),
    count: z.number().int().describe("Spans, log records or data points with this value"),
    numeric: z.boolean().describe("The value is a number"),
  })
  .meta({ id: "AttributeValue" });
export type AttributeValue = z.infer<typeof AttributeValue>;

export const AttributeValueList = z
  .object({
    source: AttributeSource,
    field: z.string(),
    ...Window,
    values: z.array(AttributeValue),
    complete: z
      .boolean()
      .describe(
        `False when the field has more values in the window than one answer reads (${MAX_VALUE_ROWS_READ.toLocaleString("en")} catalog rows): the values and counts then come from a part of them`,
      ),
  })
  .meta({ id: "AttributeValueList" });
export type AttributeValueList = z.infer<typeof AttributeValueList>;
