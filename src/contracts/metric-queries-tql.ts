// A metric query (metric-queries.ts) as TQL text, by the metric's type (docs/metrics-explorer.md
// has the semantics beside Prometheus' and the text this writes). A pure function shared by the
// web explorer (the text it shows, runs, adds to a dashboard or an alert) and the server's
// tests. Values are quoted literals: the text stands alone, as a user would write it.
import { distributionSql, summaryQuantileSql } from "./metric-histogram-tql.js";
import {
  DEFAULT_QUANTILE,
  effectiveAggregation,
  type MetricQuery,
  type MetricQueryInput,
  MetricQuery as MetricQuerySchema,
} from "./metric-queries.js";
import {
  bucketedSql,
  type Frame,
  frameFor,
  type Group,
  grouping,
  groupsOf,
  type MetricTarget,
  names,
  orderBy,
  outputs,
  walkSql,
} from "./metric-series-tql.js";

export type { MetricTarget } from "./metric-series-tql.js";

/** A counter's rate per second (each series' increases over their seconds, summed) or increase. */
function counterSql(
  query: MetricQuery,
  frame: Frame,
  groups: readonly Group[],
  aggregation: "rate" | "increase",
): string {
  const walk = walkSql(query, frame, groups, [
    { name: "value", expression: "value", kind: "number" },
  ]);
  if (aggregation === "increase")
    return `SELECT ${outputs(frame, groups, "sum(inc_value)")}
FROM (${walk})
GROUP BY ${grouping(groups)}${orderBy(frame, groups)}`;
  return `SELECT ${outputs(frame, groups, "sum(r)")}
FROM (
  SELECT ${names(groups, "t", "series")}, sum(inc_value) / (sum(dt) / 1000) AS r
  FROM (${walk})
  GROUP BY ${names(groups, "t", "series")}
)
GROUP BY ${grouping(groups)}${orderBy(frame, groups)}`;
}

/** How a gauge's points reduce within a series' bucket and across the group's series. */
const GAUGE = {
  avg: { within: "avg", across: "avg" },
  min: { within: "min", across: "min" },
  max: { within: "max", across: "max" },
  sum: { within: "avg", across: "sum" },
  last: { within: "last", across: "avg" },
} as const;

/**
 * The TQL of a metric query: `t` (the `$__timeInterval` bucket, charts only), one column per
 * group, and `value`. For a chart it reads the dashboard's window ({from}, {to},
 * {bucket_seconds}); for an alert the last five minutes, one row per group.
 */
export function metricQueryTql(input: MetricQueryInput, target: MetricTarget = "chart"): string {
  const query = MetricQuerySchema.parse(input);
  const frame = frameFor(target);
  const groups = groupsOf(query);
  const aggregation = effectiveAggregation(query);
  const level = query.quantile ?? DEFAULT_QUANTILE;
  switch (aggregation) {
    case "rate":
    case "increase":
      if (query.type === "sum") return counterSql(query, frame, groups, aggregation);
      return distributionSql(query, frame, groups, "rate", level);
    case "quantile":
      if (query.type === "summary") return summaryQuantileSql(query, frame, groups, level);
      return distributionSql(query, frame, groups, "quantile", level);
    case "avg":
      if (query.type !== "gauge" && query.type !== "sum")
        return distributionSql(query, frame, groups, "avg", level);
      return bucketedSql(query, frame, groups, GAUGE.avg);
    default:
      return bucketedSql(query, frame, groups, GAUGE[aggregation]);
  }
}
