import { UnixTime } from "../telemetry/unix-time.js";
import type { MappedRequest, MappingOptions, Row } from "./ingest-batch.js";
import type {
  ExponentialHistogramDataPoint,
  HistogramDataPoint,
  Int64,
  KeyValue,
  Metric,
  MetricsRequest,
  NumberDataPoint,
  SummaryDataPoint,
} from "./otlp/otlp-messages.js";
import {
  attributeMap,
  enumNumber,
  ItemRejection,
  int32Column,
  shaped,
  timeOf,
  toDouble,
  toNumber,
  uint64Column,
} from "./otlp/values.js";
import { type ItemContext, mapEachItem, text } from "./resource.js";

const EPOCH = new UnixTime(0, 0);

const TEMPORALITIES = ["unspecified", "delta", "cumulative"] as const;
const TEMPORALITY_NAMES = TEMPORALITIES.map((t) => `AGGREGATION_TEMPORALITY_${t.toUpperCase()}`);

interface PointBase {
  attributes?: KeyValue[] | null;
  startTimeUnixNano?: Int64 | null;
  timeUnixNano?: Int64 | null;
}

/** Columns every point row has; distribution fields default to empty. */
function pointRow(base: Row, point: PointBase, options: MappingOptions, fields: Row): Row {
  const time = timeOf(point.timeUnixNano, "time_unix_nano") ?? options.received;
  return {
    ...base,
    timestamp: time,
    start_timestamp: timeOf(point.startTimeUnixNano, "start_time_unix_nano") ?? EPOCH,
    attributes: attributeMap(point.attributes, options.limits),
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
    { resources: "resourceMetrics", scopes: "scopeMetrics", items: "metrics" },
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
  const name = text(metric.name, options.limits);
  const base = (type: string, temporality: unknown, monotonic: boolean): Row => ({
    project_id: options.projectId,
    metric_name: name,
    description: text(metric.description, options.limits),
    unit: text(metric.unit, options.limits),
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
  /** Maps one point in isolation: a bad point is rejected alone, not its whole metric. */
  const each = <P>(points: unknown, map: (point: P) => [Row, number[]]) => {
    for (const p of shaped(points as P[] | null | undefined, "dataPoints")) {
      try {
        if (p == null || typeof p !== "object")
          throw new ItemRejection("data point is not an object");
        const [row, values] = map(p);
        if (values.every(finite)) out.push(row);
        else rejections.add("data point value is not a finite number");
      } catch (error) {
        rejections.add(error instanceof ItemRejection ? error.message : "data point is malformed");
      }
    }
  };
  const counts = (values: unknown, field: string) =>
    shaped(values as Int64[] | null | undefined, field).map((v) => uint64Column(v, field));
  const doubles = (values: unknown, field: string) =>
    shaped(values as (number | string)[] | null | undefined, field).map(toDouble);

  if (metric.gauge || metric.sum) {
    const isSum = Boolean(metric.sum);
    const b = isSum
      ? base("sum", metric.sum?.aggregationTemporality, metric.sum?.isMonotonic === true)
      : base("gauge", 0, false);
    each((metric.sum ?? metric.gauge)?.dataPoints, (p: NumberDataPoint) => {
      const value =
        Object.hasOwn(p, "asInt") && p.asInt != null ? toNumber(p.asInt) : toDouble(p.asDouble);
      return [pointRow(b, p, options, { value }), [value]];
    });
  } else if (metric.histogram) {
    const b = base("histogram", metric.histogram.aggregationTemporality, false);
    each(metric.histogram.dataPoints, (p: HistogramDataPoint) => {
      const fields = {
        count: uint64Column(p.count, "count"),
        sum: toDouble(p.sum),
        min: toDouble(p.min),
        max: toDouble(p.max),
        bucket_counts: counts(p.bucketCounts, "bucket_counts"),
        explicit_bounds: doubles(p.explicitBounds, "explicit_bounds"),
      };
      return [
        pointRow(b, p, options, fields),
        [fields.sum, fields.min, fields.max, ...fields.explicit_bounds],
      ];
    });
  } else if (metric.exponentialHistogram) {
    const b = base(
      "exponential_histogram",
      metric.exponentialHistogram.aggregationTemporality,
      false,
    );
    each(metric.exponentialHistogram.dataPoints, (p: ExponentialHistogramDataPoint) => {
      const fields = {
        count: uint64Column(p.count, "count"),
        sum: toDouble(p.sum),
        min: toDouble(p.min),
        max: toDouble(p.max),
        exp_scale: int32Column(p.scale, "scale"),
        exp_zero_count: uint64Column(p.zeroCount, "zero_count"),
        exp_positive_offset: int32Column(p.positive?.offset, "positive.offset"),
        exp_positive_bucket_counts: counts(p.positive?.bucketCounts, "positive.bucket_counts"),
        exp_negative_offset: int32Column(p.negative?.offset, "negative.offset"),
        exp_negative_bucket_counts: counts(p.negative?.bucketCounts, "negative.bucket_counts"),
      };
      return [pointRow(b, p, options, fields), [fields.sum, fields.min, fields.max]];
    });
  } else if (metric.summary) {
    const b = base("summary", 0, false);
    each(metric.summary.dataPoints, (p: SummaryDataPoint) => {
      const quantiles = shaped(p.quantileValues, "quantile_values");
      const fields = {
        count: uint64Column(p.count, "count"),
        sum: toDouble(p.sum),
        quantiles: quantiles.map((q) => toDouble(q?.quantile)),
        quantile_values: quantiles.map((q) => toDouble(q?.value)),
      };
      return [
        pointRow(b, p, options, fields),
        [fields.sum, ...fields.quantiles, ...fields.quantile_values],
      ];
    });
  } else {
    rejections.add("metric has no data (gauge, sum, histogram, exponential histogram or summary)");
  }
}
