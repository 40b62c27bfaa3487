import type { MappedRequest, MappingOptions, Row } from "./model.js";
import type { Int64, KeyValue, Metric, MetricsRequest } from "./otlp/types.js";
import {
  attributeMap,
  enumNumber,
  nanosToDateTime,
  toBigInt,
  toDouble,
  toNumber,
} from "./otlp/values.js";
import { type ItemContext, list, mapEachItem, text } from "./resource.js";

const TEMPORALITIES = ["unspecified", "delta", "cumulative"] as const;
const TEMPORALITY_NAMES = TEMPORALITIES.map((t) => `AGGREGATION_TEMPORALITY_${t.toUpperCase()}`);

interface PointBase {
  attributes?: KeyValue[] | null;
  startTimeUnixNano?: Int64 | null;
  timeUnixNano?: Int64 | null;
}

/** Columns every point row has; distribution fields default to empty. */
function pointRow(base: Row, point: PointBase, options: MappingOptions, fields: Row): Row {
  const time = toBigInt(point.timeUnixNano) || options.receivedNanos;
  return {
    ...base,
    timestamp: nanosToDateTime(time),
    start_timestamp: nanosToDateTime(toBigInt(point.startTimeUnixNano)),
    attributes: attributeMap(list(point.attributes), options.limits),
    value: 0,
    count: 0,
    sum: 0,
    min: 0,
    max: 0,
    bucket_counts: [],
    explicit_bounds: [],
    exp_scale: 0,
    exp_zero_count: 0,
    exp_positive_offset: 0,
    exp_positive_bucket_counts: [],
    exp_negative_offset: 0,
    exp_negative_bucket_counts: [],
    quantiles: [],
    quantile_values: [],
    ...fields,
  };
}

/** JSON cannot carry NaN or infinities; such points are rejected rather than stored wrong. */
const finite = (value: number): boolean => Number.isFinite(value);

/** OTLP metrics → one metrics row per data point, whatever the metric type. */
export function mapMetrics(request: MetricsRequest, options: MappingOptions): MappedRequest {
  return mapEachItem(
    request.resourceMetrics,
    (r) => r.scopeMetrics,
    (s) => s.metrics,
    options,
    "metric is malformed",
    mapMetric,
  );
}

function mapMetric(
  metric: Metric,
  { resource, scope, options, batch, rejections }: ItemContext,
): undefined {
  const out = batch.metrics;
  const name = text(metric.name);
  const base = (type: string, temporality: unknown, monotonic: boolean): Row => ({
    project_id: options.projectId,
    metric_name: name,
    description: text(metric.description),
    unit: text(metric.unit),
    metric_type: type,
    aggregation_temporality:
      TEMPORALITIES[enumNumber(temporality as number | string | null, TEMPORALITY_NAMES)] ??
      "unspecified",
    is_monotonic: monotonic,
    service_name: resource.serviceName,
    ...scope,
    resource_attributes: resource.attributes,
  });
  if (!name) {
    rejections.add("metric name is required");
    return;
  }
  const push = (row: Row, values: number[]) => {
    if (values.every(finite)) out.push(row);
    else rejections.add("data point value is not a finite number");
  };

  if (metric.gauge || metric.sum) {
    const isSum = Boolean(metric.sum);
    const points = list((metric.sum ?? metric.gauge)?.dataPoints);
    const b = isSum
      ? base("sum", metric.sum?.aggregationTemporality, metric.sum?.isMonotonic === true)
      : base("gauge", 0, false);
    for (const p of points) {
      const value =
        Object.hasOwn(p, "asInt") && p.asInt != null ? toNumber(p.asInt) : toDouble(p.asDouble);
      push(pointRow(b, p, options, { value }), [value]);
    }
  } else if (metric.histogram) {
    const b = base("histogram", metric.histogram.aggregationTemporality, false);
    for (const p of list(metric.histogram.dataPoints)) {
      const fields = {
        count: toNumber(p.count),
        sum: toDouble(p.sum),
        min: toDouble(p.min),
        max: toDouble(p.max),
        bucket_counts: list(p.bucketCounts).map(toNumber),
        explicit_bounds: list(p.explicitBounds).map(toDouble),
      };
      push(pointRow(b, p, options, fields), [
        fields.sum,
        fields.min,
        fields.max,
        ...fields.explicit_bounds,
      ]);
    }
  } else if (metric.exponentialHistogram) {
    const b = base(
      "exponential_histogram",
      metric.exponentialHistogram.aggregationTemporality,
      false,
    );
    for (const p of list(metric.exponentialHistogram.dataPoints)) {
      const fields = {
        count: toNumber(p.count),
        sum: toDouble(p.sum),
        min: toDouble(p.min),
        max: toDouble(p.max),
        exp_scale: p.scale ?? 0,
        exp_zero_count: toNumber(p.zeroCount),
        exp_positive_offset: p.positive?.offset ?? 0,
        exp_positive_bucket_counts: list(p.positive?.bucketCounts).map(toNumber),
        exp_negative_offset: p.negative?.offset ?? 0,
        exp_negative_bucket_counts: list(p.negative?.bucketCounts).map(toNumber),
      };
      push(pointRow(b, p, options, fields), [fields.sum, fields.min, fields.max]);
    }
  } else if (metric.summary) {
    const b = base("summary", 0, false);
    for (const p of list(metric.summary.dataPoints)) {
      const quantiles = list(p.quantileValues);
      const fields = {
        count: toNumber(p.count),
        sum: toDouble(p.sum),
        quantiles: quantiles.map((q) => toDouble(q.quantile)),
        quantile_values: quantiles.map((q) => toDouble(q.value)),
      };
      push(pointRow(b, p, options, fields), [fields.sum, ...fields.quantile_values]);
    }
  } else {
    rejections.add("metric has no data (gauge, sum, histogram, exponential histogram or summary)");
  }
}
