// Distributions as TQL (docs/metrics-explorer.md): quantiles of explicit-bucket histograms with
// Prometheus' histogram_quantile interpolation, quantiles of exponential histograms from their
// scale and offsets, and their averages (sum / count) and rates (of count). Cumulative points
// become per-series increases first (metric-series-tql.ts, walkSql).
import type { MetricQuery } from "./metric-queries.js";
import {
  bucketedSql,
  conditionsOf,
  type Frame,
  type Group,
  grouping,
  names,
  orderBy,
  outputs,
  type Walked,
  walkSql,
} from "./metric-series-tql.js";

/** A level as TQL text (`0.95`); the contract keeps it in [0, 1]. */
export const levelText = (level: number): string => String(level);

/**
 * Prometheus' histogram_quantile over upper bounds `u` (ascending, the last +Inf) and bucket
 * counts `c`: the bucket where the rank falls, linear within it; the first bucket starts at 0
 * (or is its bound when that is ≤ 0); the +Inf bucket gives the highest finite bound. No
 * observations (or no finite bound): NULL.
 */
export function explicitQuantile(): string {
  const lower = "if(q_i = 1, 0, u[q_i - 1])";
  const below = "if(q_i = 1, 0, arraySum(arraySlice(c, 1, q_i - 1)))";
  return `multiIf(arraySum(c) <= 0 OR length(u) < 2, NULL,
      isInfinite(u[q_i]), u[q_i - 1],
      q_i = 1 AND u[1] <= 0, u[1],
      ${lower} + (u[q_i] - ${lower}) * (q_rank - ${below}) / c[q_i])`;
}

/**
 * An exponential histogram's quantile over bucket bounds at one scale (`u` upper bounds in
 * value order, negative buckets first, then the zero bucket as 0, then positive ones) and
 * counts `c`, with the scale's `base`. Within a bucket the value grows exponentially from its
 * lower bound to its upper one (as Prometheus interpolates native histograms); the zero bucket
 * is 0.
 */
export function exponentialQuantile(base: string): string {
  const fraction = "(q_rank - if(q_i = 1, 0, arraySum(arraySlice(c, 1, q_i - 1)))) / c[q_i]";
  return `multiIf(arraySum(c) <= 0, NULL,
      u[q_i] > 0, u[q_i] / ${base} * pow(${base}, ${fraction}),
      u[q_i] < 0, u[q_i] * ${base} * pow(${base}, -${fraction}),
      0)`;
}

/** Where the rank of `level` falls among the counts `c`: `q_rank` and the bucket `q_i`. */
const rankOf = (level: string) =>
  `${level} * arraySum(c) AS q_rank, arrayFirstIndex(x -> x >= q_rank, arrayCumSum(c)) AS q_i`;

/**
 * The lowest scale among the points the query reads, every point is merged at: one scalar
 * subquery in the query's WITH, which every level of the query sees as `min_scale`.
 */
const MIN_SCALE = "min_scale";
const minScaleWith = (query: MetricQuery, frame: Frame) =>
  `WITH ifNull((SELECT min(exp_scale) FROM metrics WHERE ${conditionsOf(query)} AND ${frame.lookback}), 0) AS ${MIN_SCALE}\n`;

/**
 * The metrics table with each exponential point's buckets at the lowest scale: index k of
 * scale s is index floor(k / 2^(s − min_scale)) there, so a coarse bucket sums a run of fine
 * ones (arraySlice of the counts). `e_<side>_keys` are indexes (the bounds come at the end),
 * `e_<side>_counts` their counts.
 */
function coarseSource(query: MetricQuery, frame: Frame): string {
  const side = (name: "positive" | "negative", alias: string) => {
    const offset = `exp_${name}_offset`;
    const counts = `exp_${name}_bucket_counts`;
    const floorDiv = (n: string) => `toInt64(floor((${n}) / e_factor))`;
    const from = `greatest(k * e_factor - ${offset}, 0)`;
    const until = `least((k + 1) * e_factor - ${offset}, toInt64(length(${counts})))`;
    const last = `${offset} + toInt64(length(${counts})) - 1`;
    return `if(empty(${counts}), emptyArrayInt64(), range(${floorDiv(offset)}, ${floorDiv(last)} + 1)) AS e_${alias}_keys,
      arrayMap(k -> toFloat64(arraySum(arraySlice(${counts}, ${from} + 1, ${until} - ${from}))), e_${alias}_keys) AS e_${alias}_counts`;
  };
  return `(
    SELECT *, toInt64(exp2(exp_scale - ${MIN_SCALE})) AS e_factor,
      ${side("positive", "pos")},
      ${side("negative", "neg")}
    FROM metrics
    WHERE ${conditionsOf(query)} AND ${frame.lookback}
  )`;
}

/** What the walk carries: count and sum, and for a quantile the buckets. */
function histogramWalk(
  query: MetricQuery,
  frame: Frame,
  buckets: boolean,
): { walked: Walked[]; layout?: string; extra?: string[]; source?: string } {
  const common: Walked[] = [
    { name: "count", expression: "toFloat64(count)", kind: "number" },
    { name: "sum", expression: "sum", kind: "number" },
  ];
  if (query.type === "summary" || !buckets) return { walked: common };
  if (query.type === "histogram")
    return {
      walked: [
        ...common,
        {
          name: "counts",
          expression: "arrayMap(x -> toFloat64(x), bucket_counts)",
          kind: "counts",
        },
        { name: "bounds", expression: "arrayPushBack(explicit_bounds, 1 / 0)", kind: "carry" },
      ],
      // A point whose counts do not match its bounds cannot be read; a new layout is a reset.
      layout: "cityHash64(explicit_bounds)",
      extra: ["length(bucket_counts) = length(explicit_bounds) + 1"],
    };
  return {
    walked: [
      ...common,
      { name: "zero", expression: "toFloat64(exp_zero_count)", kind: "number" },
      { name: "pos", expression: "mapFromArrays(e_pos_keys, e_pos_counts)", kind: "map" },
      { name: "neg", expression: "mapFromArrays(e_neg_keys, e_neg_counts)", kind: "map" },
    ],
    source: coarseSource(query, frame),
  };
}

/** A distribution's average (sum / count), rate of observations, or quantile, per bucket and group. */
export function distributionSql(
  query: MetricQuery,
  frame: Frame,
  groups: readonly Group[],
  aggregation: "avg" | "rate" | "quantile",
  level: number,
): string {
  const { walked, ...options } = histogramWalk(query, frame, aggregation === "quantile");
  const walk = walkSql(query, frame, groups, walked, options);
  if (aggregation === "avg")
    return `SELECT ${outputs(frame, groups, "sum(inc_sum) / nullIf(sum(inc_count), 0)")}
FROM (${walk})
GROUP BY ${grouping(groups)}${orderBy(frame, groups)}`;
  if (aggregation === "rate")
    return `SELECT ${outputs(frame, groups, "sum(r)")}
FROM (
  SELECT ${names(groups, "t", "series")}, sum(inc_count) / (sum(dt) / 1000) AS r
  FROM (${walk})
  GROUP BY ${names(groups, "t", "series")}
)
GROUP BY ${grouping(groups)}${orderBy(frame, groups)}`;
  const q = levelText(level);
  if (query.type === "histogram") {
    // sumMap drops keys whose sum is 0: each count goes in plus one, and the ones come out.
    const merged = `sumMap(inc_bounds, arrayMap(x -> x + 1, inc_counts)) AS m_plus,
      sumMap(inc_bounds, arrayMap(x -> 1, inc_counts)) AS m_ones`;
    return `SELECT ${outputs(frame, groups, explicitQuantile())}
FROM (
  SELECT *, ${rankOf(q)}
  FROM (
    SELECT ${names(groups, "t")}, m_plus.1 AS u, arrayMap((a, b) -> a - b, m_plus.2, m_ones.2) AS c
    FROM (
      SELECT ${names(groups, "t")}, ${merged}
      FROM (${walk})
      GROUP BY ${grouping(groups)}
    )
  )
)${orderBy(frame, groups)}`;
  }
  const step = `exp2(-${MIN_SCALE})`;
  const base = `exp2(${step})`;
  return `${minScaleWith(query, frame)}SELECT ${outputs(frame, groups, exponentialQuantile(base))}
FROM (
  SELECT *, ${rankOf(q)}
  FROM (
    SELECT ${names(groups, "t")},
      arrayConcat(arrayMap(k -> -exp2(k * ${step}), arrayReverse(neg.1)), [0], arrayMap(k -> exp2((k + 1) * ${step}), pos.1)) AS u,
      arrayConcat(arrayReverse(neg.2), [zero], pos.2) AS c
    FROM (
      SELECT ${names(groups, "t")}, sumMap(mapKeys(inc_pos), mapValues(inc_pos)) AS pos,
        sumMap(mapKeys(inc_neg), mapValues(inc_neg)) AS neg, sum(inc_zero) AS zero
      FROM (${walk})
      GROUP BY ${grouping(groups)}
    )
  )
)${orderBy(frame, groups)}`;
}

/**
 * A summary's reported quantile (the one at `level`), averaged over each series' points in the
 * bucket, then over the group's series: quantiles of different series cannot be merged.
 */
export function summaryQuantileSql(
  query: MetricQuery,
  frame: Frame,
  groups: readonly Group[],
  level: number,
): string {
  const near = `x -> abs(x - ${levelText(level)}) < 1e-9`;
  return bucketedSql(query, frame, groups, {
    value: `quantile_values[arrayFirstIndex(${near}, quantiles)]`,
    within: "avg",
    across: "avg",
    extra: [`arrayExists(${near}, quantiles)`],
  });
}
