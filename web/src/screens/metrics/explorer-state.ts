import type { MetricNameView } from "../../../../src/contracts/metric-names.js";
import {
  aggregationsFor,
  METRIC_AGGREGATIONS,
  METRIC_TYPES,
  type MetricAggregation,
  MetricQuery,
  type MetricType,
} from "../../../../src/contracts/metric-queries.js";
import { filtersParam, readFilters } from "../../components/filters/filter-model.js";

/*
 * The metrics explorer's state in the URL (no React, so it is tested as it is): the metric and
 * its type (`metric`, `type`, `monotonic=1`), the aggregation (`agg`), the quantile (`quantile`),
 * the group-by fields (`by`, comma-separated) and the filters (`filters`, the read API's JSON).
 * A part the contract refuses is left out, so a hand-edited link still opens what it can.
 */

export const PARAMS = ["metric", "type", "monotonic", "agg", "quantile", "by", "filters"] as const;

const splitList = (text: string | null): string[] =>
  (text ?? "")
    .split(",")
    .map((t) => t.trim())
    .filter((t) => t !== "");

/** The URL's metric query, or null when it names no metric (or no known type). */
export function readExplorer(params: URLSearchParams): MetricQuery | null {
  const metric = params.get("metric")?.trim();
  const type = params.get("type") as MetricType | null;
  if (!metric || !type || !METRIC_TYPES.includes(type)) return null;
  const monotonic = params.get("monotonic") === "1";
  const agg = params.get("agg") as MetricAggregation | null;
  const quantile = Number(params.get("quantile"));
  const base = {
    metric,
    type,
    monotonic,
    ...(agg && METRIC_AGGREGATIONS.includes(agg) && aggregationsFor(type, monotonic).includes(agg)
      ? { aggregation: agg }
      : {}),
    ...(params.get("quantile") && quantile >= 0 && quantile <= 1 ? { quantile } : {}),
  };
  // Each filter is read on its own: a bad one is left out, the others kept.
  const filters = readFilters(params).filters;
  const full = MetricQuery.safeParse({ ...base, groupBy: splitList(params.get("by")), filters });
  if (full.success) return full.data;
  // Keep the metric; drop the groups and filters the contract refused.
  const bad = new Set(full.error.issues.map((i) => `${String(i.path[0])}.${String(i.path[1])}`));
  return MetricQuery.parse({
    ...base,
    groupBy: splitList(params.get("by")).filter((_, i) => !bad.has(`groupBy.${i}`)),
    filters: filters.filter((_, i) => !bad.has(`filters.${i}`)),
  });
}

/** A query as URL parameters (the defaults left out); every explorer parameter is named. */
export function explorerParams(
  query: MetricQuery,
): Record<(typeof PARAMS)[number], string | undefined> {
  return {
    metric: query.metric,
    type: query.type,
    monotonic: query.monotonic ? "1" : undefined,
    agg: query.aggregation,
    quantile: query.quantile === undefined ? undefined : String(query.quantile),
    by: query.groupBy.length > 0 ? query.groupBy.join(",") : undefined,
    filters: filtersParam(query.filters),
  };
}

/** A metric as the explorer starts it: its type's default aggregation, no groups or filters. */
export const queryFor = (
  metric: Pick<MetricNameView, "name" | "type" | "monotonic">,
): MetricQuery =>
  MetricQuery.parse({ metric: metric.name, type: metric.type, monotonic: metric.monotonic });

/**
 * The fields a metric can be grouped or filtered by: the service, then its resource attributes
 * (`service.name` is the service), then its point attributes.
 */
export function groupFields(
  metric: Pick<MetricNameView, "attributeKeys" | "resourceKeys"> | undefined,
): { field: string; label: string; scope: "service" | "resource" | "point" }[] {
  return [
    { field: "service_name", label: "service", scope: "service" },
    ...(metric?.resourceKeys ?? [])
      .filter((k) => k !== "service.name")
      .map((key) => ({ field: `resource.${key}`, label: key, scope: "resource" as const })),
    ...(metric?.attributeKeys ?? []).map((key) => ({
      field: `attributes.${key}`,
      label: key,
      scope: "point" as const,
    })),
  ];
}

/** The chart's title: the metric, its aggregation and what it is grouped by. */
export function queryTitle(query: MetricQuery, aggregation: MetricAggregation): string {
  const what =
    aggregation === "quantile"
      ? `p${Math.round((query.quantile ?? 0.95) * 1000) / 10}`
      : aggregation;
  const by = query.groupBy.map((f) => f.replace(/^(attributes|resource)\./, ""));
  return `${query.metric} · ${what}${by.length > 0 ? ` by ${by.join(", ")}` : ""}`;
}

/** A panel unit for a metric's UCUM unit, when the chart shows values in it (not a rate). */
export function panelUnit(
  unit: string,
  aggregation: MetricAggregation,
): "none" | "s" | "ms" | "ns" | "bytes" {
  if (aggregation === "rate" || aggregation === "increase") return "none";
  switch (unit) {
    case "s":
      return "s";
    case "ms":
      return "ms";
    case "ns":
      return "ns";
    case "By":
      return "bytes";
    default:
      return "none";
  }
}
