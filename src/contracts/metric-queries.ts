// The metrics explorer's query (docs/metrics-explorer.md): one metric, how its points become a
// number per time bucket (the aggregation, by the metric's type), the attributes it is grouped
// by and the filters. Shared by the web explorer (its URL state) and the compiler to TQL
// (metric-queries-tql.ts). Every field a group or a filter names is checked against the metrics
// table here, so a refusal names its path (`groupBy.1`, `filters.0.field`).
import { z } from "zod";
import {
  FilterError,
  Filters,
  filterExpression,
  quoteString,
  resolveField,
} from "./explore-filters.js";

/** The `metric_type` column's values. */
export const METRIC_TYPES = [
  "gauge",
  "sum",
  "histogram",
  "exponential_histogram",
  "summary",
] as const;
export type MetricType = (typeof METRIC_TYPES)[number];

export const METRIC_AGGREGATIONS = [
  "rate",
  "increase",
  "avg",
  "min",
  "max",
  "sum",
  "last",
  "quantile",
] as const;
export type MetricAggregation = (typeof METRIC_AGGREGATIONS)[number];

/** The quantiles the explorer offers; any level in [0, 1] compiles. */
export const METRIC_QUANTILES = [0.5, 0.9, 0.95, 0.99] as const;
export const DEFAULT_QUANTILE = 0.95;
export const MAX_METRIC_GROUP_BY = 5;

/** What a user reads beside each aggregation. */
export const AGGREGATION_LABELS: Record<MetricAggregation, string> = {
  rate: "Rate per second",
  increase: "Increase per bucket",
  avg: "Average",
  min: "Minimum",
  max: "Maximum",
  sum: "Sum of series",
  last: "Last value",
  quantile: "Quantile",
};

/**
 * The aggregations a metric's type allows, the default first: counters (monotonic sums) as a
 * rate, gauges and other sums as an average, distributions as a quantile.
 */
export function aggregationsFor(type: MetricType, monotonic: boolean): MetricAggregation[] {
  switch (type) {
    case "sum":
      return monotonic ? ["rate", "increase"] : ["avg", "min", "max", "sum", "last"];
    case "gauge":
      return ["avg", "min", "max", "sum", "last"];
    case "histogram":
    case "exponential_histogram":
      return ["quantile", "avg", "rate"];
    case "summary":
      return ["quantile", "avg", "rate"];
  }
}

const FieldName = z.string().min(1).max(256);

export const MetricQuery = z
  .object({
    metric: z.string().min(1).max(1000).describe("The metric's name (`metric_name`)"),
    type: z.enum(METRIC_TYPES).describe("The metric's type (`metric_type`)"),
    monotonic: z
      .boolean()
      .default(false)
      .describe("Whether a sum only increases (a counter): it is then read as a rate"),
    aggregation: z
      .enum(METRIC_AGGREGATIONS)
      .optional()
      .describe("How points become a number; the type's default when absent"),
    quantile: z
      .number()
      .min(0)
      .max(1)
      .optional()
      .describe(`The quantile of a distribution (default ${DEFAULT_QUANTILE})`),
    groupBy: z
      .array(FieldName)
      .max(MAX_METRIC_GROUP_BY)
      .default([])
      .describe(
        "Fields whose values split the series: a text column, `attributes.<key>` or `resource.<key>`",
      ),
    filters: Filters.default([]),
  })
  .strict()
  .superRefine((query, ctx) => {
    const allowed = aggregationsFor(query.type, query.monotonic);
    if (query.aggregation && !allowed.includes(query.aggregation))
      ctx.addIssue({
        code: "custom",
        path: ["aggregation"],
        message: `a ${describeType(query.type, query.monotonic)} takes ${allowed.join(", ")}`,
      });
    query.groupBy.forEach((field, i) => {
      const ref = resolveField("metrics", field);
      if (!ref || (ref.kind === "column" && ref.type !== "string"))
        ctx.addIssue({
          code: "custom",
          path: ["groupBy", i],
          message: `cannot group by "${field}": use a text column, attributes.<key> or resource.<key>`,
        });
    });
    query.filters.forEach((filter, i) => {
      try {
        filterExpression("metrics", filter, quoteString);
      } catch (error) {
        if (!(error instanceof FilterError)) throw error;
        ctx.addIssue({ code: "custom", path: ["filters", i, error.part], message: error.message });
      }
    });
  })
  .meta({ id: "MetricQuery" });
export type MetricQuery = z.infer<typeof MetricQuery>;
export type MetricQueryInput = z.input<typeof MetricQuery>;

/** A type as people call it: a counter, an up-down sum, a gauge, a histogram… */
export function describeType(type: MetricType, monotonic: boolean): string {
  if (type === "sum") return monotonic ? "counter" : "non-monotonic sum";
  return type.replace("_", " ");
}

/** The aggregation a query asks for, or its type's default. */
export function effectiveAggregation(query: MetricQuery): MetricAggregation {
  return (
    query.aggregation ?? (aggregationsFor(query.type, query.monotonic)[0] as MetricAggregation)
  );
}
